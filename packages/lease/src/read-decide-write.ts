import type { V1Lease } from '@kubernetes/client-node';

/**
 * What one round of the protocol decided after reading the lease: an outcome that needs no
 * write (refused, not the holder, absent), or a write carrying the resourceVersion just read.
 * The write resolves to undefined when the server answered 409 Conflict.
 */
export type LeaseStep<T> = { readonly outcome: T } | { readonly write: () => Promise<T | undefined> };

/**
 * The one optimistic-concurrency loop behind acquire, renew and release: read the lease,
 * decide, write with the resourceVersion read. A 409 means someone wrote in between; the
 * lease is read and the decision made again, never overwritten. Conflicts are normal
 * under contention, but each means the lease just changed: after `maxAttempts` in a row the
 * loop gives up with `conflict()` instead of spinning.
 */
export async function readDecideWrite<T>(
  read: () => Promise<V1Lease | undefined>,
  decide: (current: V1Lease | undefined) => LeaseStep<T>,
  maxAttempts: number,
  conflict: () => Error,
): Promise<T> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const step = decide(await read());
    if ('outcome' in step) return step.outcome;
    const written = await step.write();
    if (written !== undefined) return written;
  }
  throw conflict();
}
