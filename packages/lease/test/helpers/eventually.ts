import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `predicate` every 25 ms until it holds or `timeoutMs` (default 30 s) has passed;
 * returns its last answer. The bound is a liveness bound, generous on purpose: on a loaded
 * machine what takes 100 ms alone can take seconds, and a correct test must not fail then.
 */
export async function eventually(predicate: () => boolean, timeoutMs = 30_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate() && performance.now() < deadline) await sleep(25);
  return predicate();
}
