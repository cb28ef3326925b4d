/**
 * A question in the learner's mistakes review (DESIGN §13; Leitner boxes, leitner.ts): pk `USER#<userId>`, sk
 * `NODE#<nodeId 8>#REVIEW#<questionId 10>`; no GSI, no TTL. One item per question the learner got wrong and has not
 * mastered yet.
 *
 * The sort key puts the review in the node progress rows' item collection (`NODE#`, nodeProgress.entity.ts): the map
 * reads both in the one Query it already makes (`nodeCollection`), so the home screen's `reviewDue` costs no extra
 * request; the review list reads the same Query.
 *
 * - Every wrong answer in normal answering (answer.ts) puts the question in box 1, due the next Tehran day, in the
 *   answer's own transaction (an unconditional update: a question already in the review goes back to box 1).
 * - A review answer (reviewAnswer.ts) moves it to its next box or back to box 1, or deletes it once mastered, under
 *   the condition that its box and due day are still the ones read (two answers at once move it once).
 *
 * A learner's review holds at most the questions of the curriculum they answered wrong and did not master yet (a few
 * hundred at most for the two seeded grades). Personal data: deleted with the account (the `NODE#` prefix).
 */
import * as z from 'zod';
import { addDays, tehranDay } from '../calendar/tehran';
import type { Db } from '../db/client';
import { type Key, pad, userPartition } from '../db/keys';
import { remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** The marker of a review item's sort key within the `NODE#<nodeId>` collection. */
export const REVIEW_MARK = '#REVIEW#';

export const reviewKey = (userId: number, nodeId: number, questionId: number): Key => ({
  pk: userPartition(userId),
  sk: `NODE#${pad(nodeId, 8)}${REVIEW_MARK}${pad(questionId, 10)}`,
});

export const ReviewItem = lazySchema(() =>
  z
    .object({
      questionId: z.number().int(),
      nodeId: z.number().int(),
      /** Leitner box, 1-5. */
      box: z.number().int().min(1).max(5),
      /** Tehran day (YYYY-MM-DD) the question is due again. */
      dueOn: z.string(),
      /** Epoch ms the question first entered the review, and of its last wrong answer in normal answering. */
      addedAt: z.number().int(),
      lastWrongAt: z.number().int().optional(),
      /** Wrong answers in normal answering that put it (back) in box 1. */
      wrongCount: z.number().int().nonnegative().optional(),
      /** Review answers given, and the epoch ms of the last. */
      reviews: z.number().int().nonnegative().optional(),
      reviewedAt: z.number().int().optional(),
    })
    .describe('review item'),
);
export type ReviewItem = z.infer<typeof ReviewItem>;

/**
 * Transaction item: a wrong answer at `nowMs` to question `questionId` of node `nodeId` puts it in box 1, due the
 * next Tehran day (DESIGN §13), whatever box it was in (unconditional).
 */
export const putMistake = (db: Db, userId: number, questionId: number, nodeId: number, nowMs: number): TxItem =>
  update(
    db,
    reviewKey(userId, nodeId, questionId),
    'SET questionId = :q, nodeId = :n, box = :box, dueOn = :due, lastWrongAt = :now, addedAt = if_not_exists(addedAt, :now) ADD wrongCount :one',
    { values: { ':q': questionId, ':n': nodeId, ':box': 1, ':due': addDays(tehranDay(nowMs), 1), ':now': nowMs, ':one': 1 } },
  );

/** The condition that `read` is still the item stored (its box and due day). */
const unchanged = (read: ReviewItem) => ({
  condition: 'box = :oldBox AND dueOn = :oldDue',
  values: { ':oldBox': read.box, ':oldDue': read.dueOn },
});

/** Transaction item: the review answer at `nowMs` moves `read` to `box`, due `dueOn` (condition: still as read). */
export const moveReview = (db: Db, userId: number, read: ReviewItem, box: number, dueOn: string, nowMs: number): TxItem => {
  const when = unchanged(read);
  return update(db, reviewKey(userId, read.nodeId, read.questionId), 'SET box = :box, dueOn = :due, reviewedAt = :now ADD reviews :one', {
    condition: when.condition,
    values: { ...when.values, ':box': box, ':due': dueOn, ':now': nowMs, ':one': 1 },
  });
};

/** Transaction item: `read` is mastered and leaves the review (condition: still as read). */
export const masterReview = (db: Db, userId: number, read: ReviewItem): TxItem =>
  remove(db, reviewKey(userId, read.nodeId, read.questionId), unchanged(read));
