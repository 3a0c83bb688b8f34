import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `predicate` every 25 ms, at most 200 times (about 5 s); returns its last answer. */
export async function eventually(predicate: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !predicate(); i++) await sleep(25);
  return predicate();
}
