/**
 * Bounded concurrency for the scheduled jobs (the streak freeze job, the parent reports): a handful of workers over
 * a page of items, so a run keeps a fixed number of requests in flight (within the DynamoDB client's 8 slots and the
 * sms provider's rate) instead of one at a time or all at once.
 */

/** Runs `work` on every item of `items`, at most `concurrency` at once; resolves when all are done (rejects on the first error). */
export async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, worker));
}
