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

/** The API server's int32 fields: anything else is not a value it would have stored. */
const isInt32 = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31;

/** A string field, or undefined (a caller may hand in a lease no API server checked). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function holder(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function readLeaseRecord(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  const duration = spec.leaseDurationSeconds;
  return {
    // (a holder that is not a string still holds the lease: failing closed is the safe side)
    holderIdentity: holder(spec.holderIdentity),
    leaseDurationSeconds: isInt32(duration) ? duration : undefined,
    acquireTime: parseMicroTime(spec.acquireTime),
    renewTime: parseMicroTime(spec.renewTime),
    leaseTransitions: isInt32(spec.leaseTransitions) ? spec.leaseTransitions : 0,
    strategy: text(spec.strategy) || undefined,
    preferredHolder: text(spec.preferredHolder) || undefined,
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
