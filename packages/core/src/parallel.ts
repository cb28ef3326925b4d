/**
 * Bounded concurrency for the scheduled jobs (the streak freeze job, the parent reports): a handful of workers over
 * a page of items, so a run keeps a fixed number of requests in flight (within the DynamoDB client's 8 slots and the
 * sms provider's rate) instead of one at a time or all at once; and the sweep of an index partition by partition,
 * page by page, up to a deadline, that both jobs make.
 */

/** Runs `work` on every item of `items`, at most `concurrency` at once; resolves when all are done (rejects on the first error). */
export async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, worker));
}

/** What a {@link sweep} did: items listed, whether it stopped at its deadline with pages left, the errors of `work`. */
export interface Sweep {
  listed: number;
  more: boolean;
  failures: unknown[];
}

/**
 * Reads every page of every partition of `partitions` (`read(partition, cursor)`), in order, and runs `work` on each
 * item, `concurrency` at once; an error of `work` is kept (and handed to `onError`) and the sweep goes on. No page is
 * read at or after `deadlineMs` (epoch ms): the sweep stops with `more`, for the next run to continue.
 */
export async function sweep<P, T>(
  partitions: readonly P[],
  read: (partition: P, cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
  work: (item: T) => Promise<void>,
  options: { concurrency: number; deadlineMs?: number; onError: (item: T, error: unknown) => void },
): Promise<Sweep> {
  const result: Sweep = { listed: 0, more: false, failures: [] };
  for (const partition of partitions) {
    let cursor: string | undefined;
    do {
      if (options.deadlineMs !== undefined && Date.now() >= options.deadlineMs) return { ...result, more: true };
      const page = await read(partition, cursor);
      result.listed += page.items.length;
      await inParallel(page.items, options.concurrency, async (item) => {
        try {
          await work(item);
        } catch (error) {
          result.failures.push(error);
          options.onError(item, error);
        }
      });
      cursor = page.nextCursor;
    } while (cursor);
  }
  return result;
}
