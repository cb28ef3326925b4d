/**
 * The service's counters of one Tehran day, for the staff dashboard (DESIGN §9: today's sign-ins, orders and
 * revenue). Each counter is added inside the transaction of the event it counts (sign-in, new user, order
 * created, order paid), so counting costs no extra request and a retried or lost transaction never counts.
 *
 * | item        | pk                         | sk              | notes                                 |
 * |-------------|----------------------------|-----------------|---------------------------------------|
 * | day counter | STATS#<YYYY-MM-DD Tehran>  | SHARD#<00-15>   | ADD-only counters; no TTL (tiny)      |
 *
 * A day is split over {@link SHARDS} items, each write picking one at random: one hot item inside many
 * concurrent transactions would make them cancel each other (TransactionConflict). The dashboard reads the
 * day's partition (one Query) and sums; the charts read the shards of many days by key (BatchGetItem, 100 a request).
 */
import { randomInt } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { getRawItems, keyId, parseItem, queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const SHARDS = 16;
const dayPartition = (day: string): string => `STATS#${day}`;
const shardKey = (day: string, shard: number): Key => ({ pk: dayPartition(day), sk: `SHARD#${pad(shard, 2)}` });

export const COUNTERS = ['signIns', 'newUsers', 'orders', 'paidOrders', 'revenue'] as const;
export type Counter = (typeof COUNTERS)[number];
/** What one event adds: counts, and `revenue` in toman. */
export type Counts = Partial<Record<Counter, number>>;

const count = z.number().int().optional();
const ShardItem = lazySchema(() =>
  z.object({ signIns: count, newUsers: count, orders: count, paidOrders: count, revenue: count }).describe('day counter shard'),
);

/** The transaction item adding `counts` to Tehran day `day` (one random shard). */
export function addCounts(db: Db, day: string, counts: Counts): TxItem {
  const names = COUNTERS.filter((c) => counts[c] !== undefined);
  return update(db, shardKey(day, randomInt(SHARDS)), `ADD ${names.map((n) => `${n} :${n}`).join(', ')}`, {
    values: Object.fromEntries(names.map((n) => [`:${n}`, counts[n]])),
  });
}

/** The counters of Tehran day `day`, summed over its shards (0 when nothing happened). */
export async function readCounts(db: Db, day: string): Promise<Record<Counter, number>> {
  const shards = await queryAll(db, { partition: dayPartition(day) }, ShardItem);
  return Object.fromEntries(COUNTERS.map((c) => [c, shards.reduce((sum, s) => sum + (s[c] ?? 0), 0)])) as Record<Counter, number>;
}

/**
 * The counters of each of `days` (Tehran days 'YYYY-MM-DD'), summed over their shards, in the order given: one
 * BatchGetItem per 100 shard keys (30 days: 5 requests), never a Scan.
 */
export async function readCountsOfDays(db: Db, days: readonly string[]): Promise<Record<Counter, number>[]> {
  const keys = days.flatMap((day) => Array.from({ length: SHARDS }, (_, shard) => shardKey(day, shard)));
  const found = await getRawItems(db, keys, { consistent: false });
  return days.map((day) => {
    const shards = Array.from({ length: SHARDS }, (_, shard) => found.get(keyId(shardKey(day, shard))))
      .filter((item) => item !== undefined)
      .map((item) => parseItem(ShardItem, item));
    return Object.fromEntries(COUNTERS.map((c) => [c, shards.reduce((sum, s) => sum + (s[c] ?? 0), 0)])) as Record<Counter, number>;
  });
}
