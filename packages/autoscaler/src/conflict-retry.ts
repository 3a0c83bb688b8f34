import { setTimeout as sleep } from 'node:timers/promises';
import { isConflict } from './management-api.js';

/** How many times a read-decide-write is tried before its 409 is reported. */
export const maxConflictAttempts = 25;

/**
 * Runs a read-decide-write until it is not refused with 409 Conflict: each attempt reads
 * afresh, so every decision is made on the object as it is now. The pause between
 * attempts grows and is jittered so that writers racing on one object spread out. After
 * `maxConflictAttempts` the last 409 is thrown: a conflict is never swallowed.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConflict(error) || i >= maxConflictAttempts) throw error;
      await sleep(Math.min(500, 5 * 2 ** Math.min(i, 7)) * (0.5 + Math.random()));
    }
  }
}
