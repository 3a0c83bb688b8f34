import type { ExpiryJudgement, LeaseState } from './expiry.js';
import { isForeign, isReserved, type LeaseRecord } from './lease-record.js';

/** What `inspect` reports about one node's lease. */
export interface LeaseInspection {
  readonly node: string;
  readonly namespace: string;
  readonly leaseName: string;
  /** The state as this client judges it (see LeaseState). */
  readonly state: LeaseState;
  /** The holder identity, or undefined when the lease is absent or free. */
  readonly holder: string | undefined;
  /** Held by an administrator (`kubeadm…`): held regardless of time. */
  readonly reserved: boolean;
  /** Uses Coordinated Leader Election fields: reported, never written. */
  readonly foreign: boolean;
  /** The holder is this client's identity. */
  readonly heldByMe: boolean;
  readonly acquireTime: Date | undefined;
  readonly renewTime: Date | undefined;
  readonly leaseDurationSeconds: number | undefined;
  readonly leaseTransitions: number | undefined;
  /**
   * For `held`/`expired`: milliseconds until (positive) or since (negative) expiry as this
   * client judges it, on its monotonic clock.
   */
  readonly expiresInMs: number | undefined;
  /** The same instant on the local wall clock, for display. */
  readonly expiresAt: Date | undefined;
  /** Which rule gave the expiry: the local observation, or the remote renewTime (opt-in). */
  readonly decidedBy: ExpiryJudgement['decidedBy'];
  readonly resourceVersion: string | undefined;
}

export interface LeaseAddress {
  readonly node: string;
  readonly namespace: string;
  readonly leaseName: string;
}

export function absentInspection(address: LeaseAddress): LeaseInspection {
  return {
    ...address,
    state: 'absent',
    holder: undefined,
    reserved: false,
    foreign: false,
    heldByMe: false,
    acquireTime: undefined,
    renewTime: undefined,
    leaseDurationSeconds: undefined,
    leaseTransitions: undefined,
    expiresInMs: undefined,
    expiresAt: undefined,
    decidedBy: undefined,
    resourceVersion: undefined,
  };
}

export function describeLease(
  address: LeaseAddress,
  record: LeaseRecord,
  judgement: ExpiryJudgement,
  identity: string | undefined,
  wallNow: Date,
  resourceVersion: string | undefined,
): LeaseInspection {
  const holder = record.holderIdentity === '' ? undefined : record.holderIdentity;
  return {
    ...address,
    state: judgement.state,
    holder,
    reserved: isReserved(record),
    foreign: isForeign(record),
    heldByMe: holder !== undefined && holder === identity,
    acquireTime: record.acquireTime,
    renewTime: record.renewTime,
    leaseDurationSeconds: record.leaseDurationSeconds,
    leaseTransitions: record.leaseTransitions,
    expiresInMs: judgement.expiresInMs,
    expiresAt:
      judgement.expiresInMs === undefined ? undefined : new Date(wallNow.getTime() + judgement.expiresInMs),
    decidedBy: judgement.decidedBy,
    resourceVersion,
  };
}

/**
 * Whether automation (health checks, autoscalers, other maintenance tools) should leave the
 * node alone: its lease is held and unexpired, or reserved by an administrator.
 */
export function isUnderMaintenanceState(inspection: LeaseInspection): boolean {
  return inspection.state === 'held' || inspection.state === 'reserved';
}
