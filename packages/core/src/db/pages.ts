/**
 * Filling a page of a filtered list (admin lists, DESIGN §9). DynamoDB's `Limit` counts items before the
 * FilterExpression, so one Query of a filtered list may return fewer items than asked, or none, with a cursor.
 * {@link fillPage} reads on from the cursor, asking each time only for the items still missing (so the last
 * cursor never skips an item), until the page is full, the list ends, or `maxReads` Queries were made; then the
 * caller gets a short page with a `nextCursor` to continue.
 */
import type { Page } from './items';

/** Default bound on the Queries one page may take. */
export const MAX_READS_PER_PAGE = 10;

/**
 * Up to `limit` items of the list `read` pages through, from `cursor`. `read(limit, cursor)` is one Query
 * (`queryPage`) of at most `limit` evaluated items. With `cut`, each Query reads at least `cut.readSize` items
 * (a sparse filter then needs far fewer Queries) and the page is cut after `limit` matches, its cursor made by
 * `cut.cursorOf(last item kept)` (the cursor `queryPage` would have returned had it stopped there).
 * Errors: whatever `read` raises (a bad cursor: `validation_error`).
 */
export async function fillPage<T>(
  read: (limit: number, cursor?: string) => Promise<Page<T>>,
  options: { limit: number; cursor?: string; maxReads?: number; cut?: { readSize: number; cursorOf: (item: T) => string } },
): Promise<Page<T>> {
  const items: T[] = [];
  let cursor = options.cursor;
  let reads = 0;
  do {
    const missing = options.limit - items.length;
    const page = await read(options.cut ? Math.max(options.cut.readSize, missing) : missing, cursor);
    reads++;
    if (options.cut && page.items.length > missing) {
      const kept = page.items.slice(0, missing);
      items.push(...kept);
      return { items, nextCursor: options.cut.cursorOf(kept.at(-1) as T) };
    }
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && items.length < options.limit && reads < (options.maxReads ?? MAX_READS_PER_PAGE));
  return { items, ...(cursor ? { nextCursor: cursor } : {}) };
}
