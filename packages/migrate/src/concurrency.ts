/**
 * How many requests a migration keeps in flight. Objects of one tier (all MachineSets, say)
 * are independent; eight at once keeps a 500-Machine migration to seconds without
 * crowding the API server's priority-and-fairness queues.
 */
export const CONCURRENCY = 8;

/**
 * Runs `task` for every item, at most `limit` at once, in order of start. After the first
 * failure it starts nothing more, waits for the tasks still running (a crash must not leave
 * writes landing behind it), and rethrows that first failure.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
}
