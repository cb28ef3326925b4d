/**
 * The nightly job's index of learners whose streak a freeze may have to keep (DESIGN §13): one item per learner
 * who holds a freeze and has a streak going, pk `USER#<userId>`, sk `STREAKWATCH`; gsi1 `STREAKWATCH#<last day>#<shard>`
 * / `<userId 12>`, where the last day is the user item's `streakLastDay` (Tehran YYYY-MM-DD) and the shard is
 * `userId % {@link STREAK_WATCH_SHARDS}`. No TTL.
 *
 * Written in the same transaction as every change of the streak (grant.ts): put with the new last day while the
 * learner holds a freeze and the streak goes on, removed when they hold none. So after Tehran midnight the learners
 * who missed yesterday and hold a freeze are exactly those in the partitions of the days before yesterday: the job
 * reads those (never a Scan), and a learner it settles moves to a later day's partition (or out). The index is
 * sharded because every active learner with a freeze writes their day's partition once a day, most of them in the
 * four after-school hours (DESIGN §14: no partition near half of DynamoDB's 1,000 writes a second per partition).
 * Personal data: deleted with the account.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { deleteItem, type Page, queryPage } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, remove, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const STREAK_WATCH_PREFIX = 'STREAKWATCH';
/** Write shards of each day's partition. */
export const STREAK_WATCH_SHARDS = 10;

export const streakWatchKey = (userId: number): Key => ({ pk: userPartition(userId), sk: STREAK_WATCH_PREFIX });

const watchPartition = (day: string, shard: number): string => `${STREAK_WATCH_PREFIX}#${day}#${shard}`;

export const StreakWatchItem = lazySchema(() =>
  z
    .object({
      userId: z.number().int().positive(),
      /** The user item's `streakLastDay` when written. */
      lastDay: z.string(),
    })
    .describe('streak watch'),
);
export type StreakWatch = z.infer<typeof StreakWatchItem>;

/** Transaction item: learner `userId`, whose streak's last day is now `lastDay`, holds a freeze. */
export const watchStreak = (db: Db, userId: number, lastDay: string): TxItem =>
  put(db, {
    ...streakWatchKey(userId),
    gsi1pk: watchPartition(lastDay, userId % STREAK_WATCH_SHARDS),
    gsi1sk: pad(userId, 12),
    userId,
    lastDay,
  });

/** Transaction item: learner `userId` holds no freeze any more (or the streak is over): out of the index. */
export const unwatchStreak = (db: Db, userId: number): TxItem => remove(db, streakWatchKey(userId));

/** One page of the learners of `shard` whose streak's last day is `day`, from `cursor` (gsi1, eventually consistent). */
export const watchedOn = (db: Db, day: string, shard: number, cursor?: string, limit = 100): Promise<Page<StreakWatch>> =>
  queryPage(db, { index: 'gsi1', partition: watchPartition(day, shard), limit }, StreakWatchItem, cursor);

/** Drops learner `userId`'s watch item when it still names `lastDay` (the nightly job's clean-up of one it listed). */
export async function dropStaleWatch(db: Db, userId: number, lastDay: string): Promise<void> {
  try {
    await deleteItem(db, streakWatchKey(userId), { condition: 'lastDay = :d', values: { ':d': lastDay } });
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // moved on meanwhile: keep it
  }
}
