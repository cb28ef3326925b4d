/**
 * The XP histogram of a leaderboard (issue 3 §3; DESIGN §5, §14), write-sharded (issue 30, migration
 * `0006-sharded-boards`):
 *
 * | pk                              | sk         | attributes          | TTL |
 * |---------------------------------|------------|---------------------|-----|
 * | BOARDXP#<board>#<shard, 2>      | <xp, 10>   | xp, n               | weekly boards only |
 *
 * `n` is the number of learners of the shard at exactly `xp`; a learner's shard is `userId mod`
 * {@link HISTOGRAM_SHARDS}. Every grant moves its learner from the old value's bucket to the new one inside the
 * grant's transaction (board.ts), in the learner's own shard, so the learners a nationwide quiz puts on one XP value
 * land on {@link HISTOGRAM_SHARDS} items in as many partitions instead of one item (one item in many concurrent
 * transactions: TransactionConflict; one partition: a write throttle; figures in docs/capacity.md). Readers merge the
 * shards: the board snapshot (snapshot.ts) once a minute, never a request. Not personal data (counts only).
 *
 * Before migration 0006 the histogram was one partition `BOARDXP#<board>` ({@link legacyHistogramPartition}).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** Write shards of every board's histogram (chosen from the capacity model, docs/capacity.md). */
export const HISTOGRAM_SHARDS = 64;

const histogramPartition = (board: string, shard: number): string => `BOARDXP#${board}#${pad(shard, 2)}`;
/** The one histogram partition of `board` before migration 0006. */
export const legacyHistogramPartition = (board: string): string => `BOARDXP#${board}`;

/** The bucket of `xp` on `board` that counts learner `userId`. */
export const xpBucketKey = (board: string, userId: number, xp: number): Key => ({
  pk: histogramPartition(board, userId % HISTOGRAM_SHARDS),
  sk: pad(xp, 10),
});

export const XpBucketItem = lazySchema(() =>
  z
    .object({
      xp: z.number().int().nonnegative(),
      /** Learners of the shard at exactly `xp` (0 once they all moved on). */
      n: z.number().int(),
      /** TTL, epoch seconds (weekly boards). */
      expiresAt: z.number().int().optional(),
    })
    .describe('XP histogram bucket'),
);
export type XpBucket = z.infer<typeof XpBucketItem>;

const BucketCount = lazySchema(() => XpBucketItem.unwrap().pick({ xp: true, n: true }).describe('XP histogram bucket (count)'));

/**
 * Transaction item: adds `delta` (+1 or -1) to the bucket of `xp` on `board` in the shard of learner `userId`,
 * creating it; with `expiresAt` (epoch seconds) it also (re)sets the bucket's TTL.
 */
export function moveBucket(db: Db, board: string, userId: number, xp: number, delta: number, expiresAt?: number): TxItem {
  const ttl = expiresAt === undefined ? '' : ', expiresAt = :exp';
  return update(db, xpBucketKey(board, userId, xp), `ADD n :delta SET xp = :xp${ttl}`, {
    values: { ':delta': delta, ':xp': xp, ...(expiresAt === undefined ? {} : { ':exp': expiresAt }) },
  });
}

/**
 * Learners on `board` at each XP value, all shards merged: `[xp, learners]` pairs, highest XP first, values nobody
 * holds left out. One Query per shard (all pages, in parallel), counts only.
 */
export async function mergedHistogram(db: Db, board: string): Promise<Array<[number, number]>> {
  const shards = await Promise.all(
    Array.from({ length: HISTOGRAM_SHARDS }, (_, shard) =>
      queryAll(db, { partition: histogramPartition(board, shard), projection: ['xp', 'n'] }, BucketCount),
    ),
  );
  const merged = new Map<number, number>();
  for (const bucket of shards.flat()) merged.set(bucket.xp, (merged.get(bucket.xp) ?? 0) + bucket.n);
  return [...merged.entries()].filter(([, n]) => n > 0).sort((a, b) => b[0] - a[0]);
}

/** Every bucket of `board`, shards merged, lowest XP first (values nobody holds included with 0). For checks and tools. */
export async function xpHistogram(db: Db, board: string): Promise<XpBucket[]> {
  const shards = await Promise.all(
    Array.from({ length: HISTOGRAM_SHARDS }, (_, shard) => queryAll(db, { partition: histogramPartition(board, shard) }, XpBucketItem)),
  );
  const merged = new Map<number, XpBucket>();
  for (const b of shards.flat()) {
    const seen = merged.get(b.xp);
    merged.set(b.xp, seen ? { ...seen, n: seen.n + b.n } : b);
  }
  return [...merged.values()].sort((a, b) => a.xp - b.xp);
}
