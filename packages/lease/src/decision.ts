import type { LeaseState } from './expiry.js';
import type { LeaseInspection } from './inspection.js';
import { isForeign, type LeaseRecord } from './lease-record.js';

/**
 * What a client does after reading the lease: the decision tables of the protocol
 * (docs/lease.md) for acquire, renew and release. Pure, so each table is tested row by row;
 * read-decide-write.ts runs them against the server.
 */

/** What a client that wants the lease does after reading it. */
export type AcquireDecision =
  /** No Lease object: create it. */
  | { readonly action: 'create' }
  /** We are the holder: renew, keeping acquireTime and leaseTransitions. */
  | { readonly action: 'renew' }
  /** Free or expired: take it, with acquireTime = now and leaseTransitions + 1. */
  | { readonly action: 'take'; readonly from: 'free' | 'expired'; readonly previousHolder: string }
  /** Leave it alone. */
  | { readonly action: 'refuse'; readonly because: 'held' | 'reserved' | 'foreign'; readonly holder: string };

/** The largest `leaseTransitions` the API server stores: the field is an int32. */
export const maxLeaseTransitions = 2 ** 31 - 1;

/**
 * `leaseTransitions` after a takeover: one more, wrapping to 0 after int32's maximum.
 * client-go adds 1 in Go's `int` and narrows to int32, which gives -2^31 there, and the API
 * server refuses a negative count (422): such a lease could never change hands again.
 * Wrapping keeps the count a valid value that still changes on every takeover (saturating
 * would leave it unchanged, hiding the takeover from anyone comparing counts). A value the
 * server would not have stored (negative, not an integer) also restarts at 0.
 */
export function nextLeaseTransitions(current: number): number {
  return Number.isInteger(current) && current >= 0 && current < maxLeaseTransitions ? current + 1 : 0;
}

export function decideAcquire(
  record: LeaseRecord | undefined,
  identity: string,
  judgement: { readonly state: LeaseState },
): AcquireDecision {
  if (record === undefined || judgement.state === 'absent') return { action: 'create' };
  const holder = record.holderIdentity;
  // Foreign first: a Coordinated Leader Election lease is never written, not even by its holder.
  if (isForeign(record)) return { action: 'refuse', because: 'foreign', holder };
  if (judgement.state === 'reserved') return { action: 'refuse', because: 'reserved', holder };
  if (holder === identity) return { action: 'renew' };
  if (judgement.state === 'free') return { action: 'take', from: 'free', previousHolder: holder };
  if (judgement.state === 'expired') return { action: 'take', from: 'expired', previousHolder: holder };
  return { action: 'refuse', because: 'held', holder };
}

/** What a holder renewing its lease does after reading it. */
export type RenewDecision =
  | { readonly action: 'renew' }
  /** lost: someone else holds it; absent: it was deleted; foreign: it became a CLE lease. */
  | { readonly action: 'refuse'; readonly because: 'lost' | 'absent' | 'foreign' };

export function decideRenew(lease: Pick<LeaseInspection, 'state' | 'foreign' | 'heldByMe'>): RenewDecision {
  if (lease.state === 'absent') return { action: 'refuse', because: 'absent' };
  if (lease.foreign) return { action: 'refuse', because: 'foreign' };
  return lease.heldByMe ? { action: 'renew' } : { action: 'refuse', because: 'lost' };
}

/** What a holder giving its lease up does after reading it: only its own lease is written. */
export type ReleaseDecision =
  | { readonly action: 'release' }
  | { readonly action: 'refuse'; readonly because: 'not-holder' | 'absent' };

export function decideRelease(
  lease: Pick<LeaseInspection, 'state' | 'foreign' | 'heldByMe'>,
): ReleaseDecision {
  if (lease.state === 'absent') return { action: 'refuse', because: 'absent' };
  return lease.heldByMe && !lease.foreign
    ? { action: 'release' }
    : { action: 'refuse', because: 'not-holder' };
}
