/**
 * A learner's completion of one lesson: pk `USER#<userId>`, sk `LESSON#<lessonId 8 digits>`; no GSI, no TTL.
 * Written once (condition: not there yet) in the transaction that grants the lesson's XP. Personal data:
 * deleted with the account.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, getItems } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const LESSON_COMPLETION_PREFIX = 'LESSON#';

export const lessonCompletionKey = (userId: number, lessonId: number): Key => ({
  pk: userPartition(userId),
  sk: `${LESSON_COMPLETION_PREFIX}${pad(lessonId, 8)}`,
});

export const LessonCompletionItem = lazySchema(() =>
  z
    .object({
      lessonId: z.number().int(),
      nodeId: z.number().int(),
      /** 0-3, see rules.ts `starsFor`. */
      stars: z.number().int().nonnegative(),
      /** XP this completion granted (0 when the node's quiz had credited the lesson's questions first). */
      xp: z.number().int().nonnegative(),
      /** ISO time. */
      completedAt: z.string(),
    })
    .describe('lesson completion'),
);
export type LessonCompletion = z.infer<typeof LessonCompletionItem>;

/** Whether the learner completed `lessonId` (strongly consistent). */
export async function isLessonCompleted(db: Db, userId: number, lessonId: number): Promise<boolean> {
  return (await getItem(db, lessonCompletionKey(userId, lessonId), LessonCompletionItem)) !== undefined;
}

/** The learner's completions among `lessonIds`, by lesson id (one BatchGetItem; no request for an empty list). */
export async function lessonCompletions(db: Db, userId: number, lessonIds: number[]): Promise<Map<number, LessonCompletion>> {
  if (lessonIds.length === 0) return new Map();
  const items = await getItems(
    db,
    lessonIds.map((id) => lessonCompletionKey(userId, id)),
    LessonCompletionItem,
  );
  return new Map(items.map((l) => [l.lessonId, l]));
}

/** Transaction item: the completion `row`; fails when the lesson was completed already. */
export const putLessonCompletion = (db: Db, userId: number, row: LessonCompletion): TxItem =>
  put(db, { ...lessonCompletionKey(userId, row.lessonId), ...row }, { condition: 'attribute_not_exists(pk)' });
