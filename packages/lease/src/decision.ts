import type { LeaseState } from './expiry.js';
import { isForeign, type LeaseRecord } from './lease-record.js';

/**
 * What a client that wants the lease does after reading it: the decision table of the
 * protocol (docs/lease.md). Pure, so the table is tested row by row.
 */
export type AcquireDecision =
  /** No Lease object: create it. */
  | { readonly action: 'create' }
  /** We are the holder: renew, keeping acquireTime and leaseTransitions. */
  | { readonly action: 'renew' }
  /** Free or expired: take it, with acquireTime = now and leaseTransitions + 1. */
  | { readonly action: 'take'; readonly from: 'free' | 'expired'; readonly previousHolder: string }
  /** Leave it alone. */
  | { readonly action: 'refuse'; readonly because: 'held' | 'reserved' | 'foreign'; readonly holder: string };

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
