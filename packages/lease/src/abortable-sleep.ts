import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits `ms`, or rejects with the signal's own reason when it aborts (node's timer rejects
 * with a generic AbortError instead, which would hide a TimeoutError or a LeaseLostError).
 */
export async function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
}

/** Waits `ms`; resolves to false instead when `signal` aborts first (or has aborted). */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
