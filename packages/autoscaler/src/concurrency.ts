/**
 * Runs `task` for every item, at most `limit` at once, in order of start. A failure does not
 * stop the others: every task runs, and the first failure is rethrown once all have ended
 * (nothing is left running behind the caller's back).
 */
export async function forEachAtMost<T>(
  items: Iterable<T>,
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < queue.length) {
      const item = queue[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, queue.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}
