/**
 * The tutor's usage of the whole service for one Tehran day (spec "Assistant data": token usage; issue 5 §6).
 *
 * | item        | pk                          | sk      | TTL                                          |
 * |-------------|-----------------------------|---------|----------------------------------------------|
 * | daily usage | AIUSAGE#<YYYY-MM-DD Tehran> | AIUSAGE | `expiresAt`, {@link USAGE_KEEP_DAYS} days after the day's start |
 *
 * Counters: model tokens (`promptTokens`, `completionTokens`) and answers by outcome (`answers`,
 * `cachedAnswers`, `refusedAnswers`, `incompleteAnswers`: stopped by the model at its token cap or by the content
 * filter), each absent until first added. Not personal data (no user in it).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';
import { type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import type { TokenUsage } from '../providers/ports';

/** How long a day's aggregate is kept, days. */
export const USAGE_KEEP_DAYS = 400;

export const dailyUsageKey = (day: string): Key => ({ pk: `AIUSAGE#${day}`, sk: 'AIUSAGE' });

/** What became of one answer, the counter it adds 1 to. */
export type UsageOutcome = 'answers' | 'cachedAnswers' | 'refusedAnswers' | 'incompleteAnswers';

const count = z.number().int().nonnegative();

export const DailyUsageItem = lazySchema(() =>
  z
    .object({
      /** Tehran day, YYYY-MM-DD. */
      day: z.string(),
      promptTokens: count,
      completionTokens: count,
      answers: count.optional(),
      cachedAnswers: count.optional(),
      refusedAnswers: count.optional(),
      incompleteAnswers: count.optional(),
      /** TTL, epoch seconds. */
      expiresAt: z.number().int(),
    })
    .describe('tutor daily usage'),
);
export type DailyUsageItem = z.infer<typeof DailyUsageItem>;

/** The service's tutor usage of Tehran day `day`, or undefined when nothing was answered that day. */
export const getDailyUsage = (db: Db, day: string): Promise<DailyUsageItem | undefined> => getItem(db, dailyUsageKey(day), DailyUsageItem);

/** Adds one answer with `outcome` and its tokens (0 without usage) to the day `day`; `expiresAt` in epoch seconds. */
export const addDailyUsage = (db: Db, day: string, outcome: UsageOutcome, usage: TokenUsage | undefined, expiresAt: number): TxItem =>
  update(db, dailyUsageKey(day), `SET #day = :day, expiresAt = :exp ADD promptTokens :p, completionTokens :c, ${outcome} :one`, {
    names: { '#day': 'day' },
    values: { ':day': day, ':exp': expiresAt, ':one': 1, ':p': usage?.promptTokens ?? 0, ':c': usage?.completionTokens ?? 0 },
  });
