/**
 * The request count of one throttle window (spec Limits): pk `THROTTLE#<scope>#<subject>`, sk `<window start,
 * epoch seconds>`, attributes `count` and `expiresAt` (TTL, epoch seconds). `subject` is `user:<id>`,
 * `staff:<username>` or `ip:<address>`. Items live outside the learners' partitions and expire on their own.
 * Counted by one `UpdateItem ADD` (hit.ts) or inside a route's transaction (ticket.ts).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { parseItem, updateItem } from '../db/items';
import type { Key } from '../db/keys';
import { lazySchema } from '../lazySchema';

/** Seconds an expired window's item is kept past its end before TTL may delete it. */
const TTL_GRACE_SECONDS = 60;

export const throttleWindowKey = (scope: string, subject: string, windowStart: number): Key => ({
  pk: `THROTTLE#${scope}#${subject}`,
  sk: String(windowStart),
});

/** The fixed window of `windowSeconds` holding `nowSeconds`: its start and end, and its item's TTL (epoch seconds). */
export function windowOf(nowSeconds: number, windowSeconds: number): { start: number; end: number; expiresAt: number } {
  const start = nowSeconds - (nowSeconds % windowSeconds);
  return { start, end: start + windowSeconds, expiresAt: start + windowSeconds + TTL_GRACE_SECONDS };
}

/** What a hit hands back: the window's count after it. */
const WindowCount = lazySchema(() => z.object({ count: z.number().int().positive() }).describe('throttle window'));

/**
 * Counts one request in the window of (`scope`, `subject`) starting at `windowStart` and sets its TTL to
 * `expiresAt` (epoch seconds), in one `UpdateItem ADD`: every Lambda instance shares the count. Returns the
 * count including this request.
 */
export async function countHit(db: Db, scope: string, subject: string, windowStart: number, expiresAt: number): Promise<number> {
  const key = throttleWindowKey(scope, subject, windowStart);
  const updated = await updateItem(
    db,
    key,
    'ADD #count :one SET expiresAt = :exp',
    { names: { '#count': 'count' }, values: { ':one': 1, ':exp': expiresAt } },
    'UPDATED_NEW',
  );
  return parseItem(WindowCount, { ...key, ...updated }).count;
}
