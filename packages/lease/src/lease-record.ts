import type { V1Lease } from '@kubernetes/client-node';
import { isReservedHolder } from './holder-identity.js';
import { parseMicroTime } from './micro-time.js';

/**
 * The spec of a Lease as this package reads it. Missing fields are kept missing (not
 * defaulted) so that decisions can say how they treat them.
 */
export interface LeaseRecord {
  /** `''` when the field is absent or empty: nobody holds the lease. */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number | undefined;
  readonly acquireTime: Date | undefined;
  readonly renewTime: Date | undefined;
  readonly leaseTransitions: number;
  /** Set only on Coordinated Leader Election leases, which this package never manages. */
  readonly strategy: string | undefined;
  readonly preferredHolder: string | undefined;
  /**
   * The spec as written, serialised: two records with the same fingerprint are the same
   * observation. Any change (a renewal rewrites renewTime) resets the local expiry timer.
   */
  readonly fingerprint: string;
}

export function readLeaseRecord(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  const duration = spec.leaseDurationSeconds;
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: typeof duration === 'number' && Number.isFinite(duration) ? duration : undefined,
    acquireTime: parseMicroTime(spec.acquireTime),
    renewTime: parseMicroTime(spec.renewTime),
    leaseTransitions: typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0,
    strategy: spec.strategy || undefined,
    preferredHolder: spec.preferredHolder || undefined,
    fingerprint: JSON.stringify([
      spec.holderIdentity ?? null,
      spec.leaseDurationSeconds ?? null,
      timeText(spec.acquireTime),
      timeText(spec.renewTime),
      spec.leaseTransitions ?? null,
      spec.strategy ?? null,
      spec.preferredHolder ?? null,
    ]),
  };
}

function timeText(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : null;
}

/** A lease that uses Coordinated Leader Election fields belongs to another protocol. */
export function isForeign(record: LeaseRecord): boolean {
  return record.strategy !== undefined || record.preferredHolder !== undefined;
}

export function isReserved(record: LeaseRecord): boolean {
  return isReservedHolder(record.holderIdentity);
}
