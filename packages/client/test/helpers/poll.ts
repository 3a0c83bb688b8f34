import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `predicate` (sync or async) every 50 ms until it holds, at most `attempts` times
 * (default 2,400: about two minutes on a loaded machine); throws naming `what` otherwise.
 */
export async function pollUntil(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  attempts = 2400,
): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await predicate()) return;
    await sleep(50);
  }
  throw new Error(`still not true after ${attempts} polls: ${what}`);
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}
