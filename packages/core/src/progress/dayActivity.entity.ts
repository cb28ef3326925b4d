/**
 * A learner's activity of one Tehran day (issue 3 §2, §4): pk `USER#<userId>`, sk `DAY#<YYYY-MM-DD Tehran>`;
 * no GSI; TTL `expiresAt` {@link ACTIVITY_KEEP_DAYS} days after the day's start. Its counters are ADDed inside
 * the same transaction as the answer, completion or tutor question they count (see {@link addDayActivity}),
 * so they never drift from what happened. Read by the weekly report. Personal data: deleted with the account.
 */
import * as z from 'zod';
import { tehranDay, tehranDayStart } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { type Condition, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const DAY_ACTIVITY_PREFIX = 'DAY#';
/** Daily activity items are kept this many days (TTL). */
export const ACTIVITY_KEEP_DAYS = 400;

/** `day` is a Tehran day, YYYY-MM-DD. */
export const dayActivityKey = (userId: number, day: string): Key => ({ pk: userPartition(userId), sk: `${DAY_ACTIVITY_PREFIX}${day}` });

const counter = z.number().int().optional();

export const DayActivityItem = lazySchema(() =>
  z
    .object({
      /** Tehran day, YYYY-MM-DD. */
      day: z.string(),
      /** Questions answered (right or wrong) and answered right. */
      answered: counter,
      correct: counter,
      completedLessons: counter,
      completedNodes: counter,
      /** Tutor questions asked (counted when the quota is reserved; given back with it on a failed model call). */
      assistantQuestions: counter,
      /** Mistakes review answers (also counted in `answered` and `correct`) and the review XP they earned (capped a day). */
      reviewAnswered: counter,
      reviewXp: counter,
      /** TTL, epoch seconds. */
      expiresAt: z.number().int(),
    })
    .describe('daily activity'),
);
export type DayActivity = z.infer<typeof DayActivityItem>;

/** The counters a transaction may add to a day (negative to give one back). */
export type ActivityCounters = Partial<
  Pick<DayActivity, 'answered' | 'correct' | 'completedLessons' | 'completedNodes' | 'assistantQuestions' | 'reviewAnswered' | 'reviewXp'>
>;

/**
 * Transaction item: adds `counters` to the learner's activity of the Tehran day of `nowMs` (epoch ms), creating it;
 * only when `when` holds, if given (its names and values must not clash with `#c<n>`, `:c<n>`, `#day`, `:day`, `:exp`).
 */
export function addDayActivity(db: Db, userId: number, nowMs: number, counters: ActivityCounters, when: Condition = {}): TxItem {
  const entries = Object.entries(counters).filter((entry): entry is [string, number] => entry[1] !== undefined);
  const adds = entries.map((_, i) => `#c${i} :c${i}`).join(', ');
  const day = tehranDay(nowMs);
  return update(db, dayActivityKey(userId, day), `SET #day = :day, expiresAt = :exp ADD ${adds}`, {
    ...(when.condition ? { condition: when.condition } : {}),
    names: { '#day': 'day', ...Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])), ...when.names },
    values: {
      ':day': day,
      ':exp': epochSeconds(tehranDayStart(nowMs)) + ACTIVITY_KEEP_DAYS * 86_400,
      ...Object.fromEntries(entries.map(([, v], i) => [`:c${i}`, v])),
      ...when.values,
    },
  });
}

/** The learner's activity of Tehran day `day` (YYYY-MM-DD), or undefined when nothing was counted that day. */
export const getDayActivity = (db: Db, userId: number, day: string): Promise<DayActivity | undefined> =>
  getItem(db, dayActivityKey(userId, day), DayActivityItem);

/** The learner's activity items of the Tehran days `from` to `to` (YYYY-MM-DD, both included), oldest first. */
export const dayActivityBetween = (db: Db, userId: number, from: string, to: string): Promise<DayActivity[]> =>
  queryAll(
    db,
    { partition: userPartition(userId), sortKey: { between: [dayActivityKey(userId, from).sk, dayActivityKey(userId, to).sk] } },
    DayActivityItem,
  );
