/**
 * The XP histogram of a leaderboard (issue 3 §3; DESIGN §5, no O(users) reads): pk `BOARDXP#<board>`, sk
 * `<xp, 10 digits>`, `n` the number of learners at exactly that XP; no GSI; TTL on weekly boards only. One item
 * per distinct XP value, so the learners above any XP are the sum of one Query page (about 20,000 distinct
 * values fit in 1 MB) whatever the number of learners. Every grant moves its learner from the old value's
 * bucket to the new one in the grant's transaction (board.ts). Not personal data (counts only).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { type TxItem, update } from '../db/transact';

const histogramPartition = (board: string): string => `BOARDXP#${board}`;

export const xpBucketKey = (board: string, xp: number): Key => ({ pk: histogramPartition(board), sk: pad(xp, 10) });

export const XpBucketItem = z
  .object({
    xp: z.number().int().nonnegative(),
    /** Learners at exactly `xp` (0 once they all moved on). */
    n: z.number().int(),
    /** TTL, epoch seconds (weekly boards). */
    expiresAt: z.number().int().optional(),
  })
  .describe('XP histogram bucket');
export type XpBucket = z.infer<typeof XpBucketItem>;

const BucketCount = XpBucketItem.pick({ n: true }).describe('XP histogram bucket (count)');

/**
 * Transaction item: adds `delta` (+1 or -1) learners to the bucket of `xp` on `board`, creating it; with
 * `expiresAt` (epoch seconds) it also (re)sets the bucket's TTL.
 */
export function moveBucket(db: Db, board: string, xp: number, delta: number, expiresAt?: number): TxItem {
  const ttl = expiresAt === undefined ? '' : ', expiresAt = :exp';
  return update(db, xpBucketKey(board, xp), `ADD n :delta SET xp = :xp${ttl}`, {
    values: { ':delta': delta, ':xp': xp, ...(expiresAt === undefined ? {} : { ':exp': expiresAt }) },
  });
}

/** Learners on `board` with strictly more than `xp` (one Query of the buckets above it, counts only). */
export async function learnersAbove(db: Db, board: string, xp: number): Promise<number> {
  const buckets = await queryAll(
    db,
    { partition: histogramPartition(board), sortKey: { gt: xpBucketKey(board, xp).sk }, projection: ['n'] },
    BucketCount,
  );
  return buckets.reduce((sum, b) => sum + b.n, 0);
}

/** Every bucket of `board`, lowest XP first. For checks, not for requests. */
export const xpHistogram = (db: Db, board: string): Promise<XpBucket[]> =>
  queryAll(db, { partition: histogramPartition(board) }, XpBucketItem);
