/**
 * The learner's tutor quota of one Tehran day (spec Limits "Assistant questions per day"; issue 5 §5, §6).
 *
 * | item  | pk            | sk                          | TTL                                   |
 * |-------|---------------|-----------------------------|---------------------------------------|
 * | quota | USER#<userId> | AIQUOTA#<YYYY-MM-DD Tehran> | `expiresAt`, {@link QUOTA_KEEP_SECONDS} after the reservation |
 *
 * `used` counts the day's questions, `limit` is the limit of the latest reservation; `promptTokens` and
 * `completionTokens` add up the learner's model usage of the day. Personal data: deleted with the account
 * ({@link QUOTA_PREFIX}).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import type { TokenUsage } from '../providers/ports';

/** Sort-key prefix of quota items in the learner's partition. */
export const QUOTA_PREFIX = 'AIQUOTA#';
/** Quota items live three days (TTL), long enough for a give-back that crosses midnight. */
export const QUOTA_KEEP_SECONDS = 3 * 86_400;

export const quotaKey = (userId: number, day: string): Key => ({ pk: userPartition(userId), sk: `${QUOTA_PREFIX}${day}` });

const count = z.number().int();

export const QuotaItem = lazySchema(() =>
  z
    .object({
      /** Tehran day, YYYY-MM-DD. */
      day: z.string(),
      /** Questions counted today (a give-back lowers it again). */
      used: count,
      /** The daily limit as of the latest reservation. */
      limit: count,
      /** The learner's model tokens of the day (absent until an answer reports usage). */
      promptTokens: count.optional(),
      completionTokens: count.optional(),
      /** TTL, epoch seconds. */
      expiresAt: count,
    })
    .describe('tutor quota'),
);
export type QuotaItem = z.infer<typeof QuotaItem>;

/** The learner's quota items still kept (the last {@link QUOTA_KEEP_SECONDS}), newest day first: one Query of their partition. */
export const recentQuotas = (db: Db, userId: number): Promise<QuotaItem[]> =>
  queryAll(db, { partition: userPartition(userId), sortKey: { beginsWith: QUOTA_PREFIX }, descending: true }, QuotaItem);

/** The learner's quota item of Tehran day `day`, or undefined when they asked nothing that day. */
export const getQuota = (db: Db, userId: number, day: string): Promise<QuotaItem | undefined> =>
  getItem(db, quotaKey(userId, day), QuotaItem);

/**
 * Counts one question: `used + 1` under the condition `used < limit` (absent counts as 0), and stores `limit`.
 * The transaction fails on this item (ConditionalCheckFailed) when the day's questions reached `limit`.
 */
export const reserveQuotaUpdate = (db: Db, userId: number, day: string, limit: number, expiresAt: number): TxItem =>
  update(db, quotaKey(userId, day), 'SET #limit = :limit, #day = :day, expiresAt = :exp ADD #used :one', {
    condition: 'attribute_not_exists(#used) OR #used < :limit',
    names: { '#limit': 'limit', '#day': 'day', '#used': 'used' },
    values: { ':limit': limit, ':day': day, ':exp': expiresAt, ':one': 1 },
  });

/** Gives one question back: `used - 1` under the condition `used > 0` (fails on this item when the item is gone or at 0). */
export const giveBackQuotaUpdate = (db: Db, userId: number, day: string): TxItem =>
  update(db, quotaKey(userId, day), 'ADD #used :minus', {
    condition: '#used > :zero',
    names: { '#used': 'used' },
    values: { ':minus': -1, ':zero': 0 },
  });

/** Adds an answer's model tokens to the learner's day. */
export const addQuotaTokens = (db: Db, userId: number, day: string, usage: TokenUsage): TxItem =>
  update(db, quotaKey(userId, day), 'ADD promptTokens :p, completionTokens :c', {
    values: { ':p': usage.promptTokens, ':c': usage.completionTokens },
  });
