/**
 * Runs `work` over `items` with at most `concurrency` in flight; resolves with results in input
 * order. The first rejection stops new work from starting and rejects the pool once in-flight
 * work has settled.
 */
export async function promisePool<T, R>(options: {
  items: readonly T[];
  concurrency: number;
  work: (item: T, index: number) => Promise<R>;
}): Promise<R[]> {
  const { items, work } = options;
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure) throw failure.error;
  return results;
}
