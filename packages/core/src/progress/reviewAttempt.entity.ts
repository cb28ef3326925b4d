/**
 * A review answer attempt, the replay record of `POST /api/review/{questionId}/answer` with an `attemptId` (DESIGN
 * §13, offline-safe as answers are: attempt.entity.ts): pk `USER#<userId>`, sk `REVIEWATTEMPT#<attemptId>`; no GSI;
 * TTL `expiresAt` {@link ATTEMPT_TTL_SECONDS} after the answer. Written in the review answer's transaction
 * (condition: not there yet), so a retried request replays the first result instead of moving the question (and
 * granting its XP) twice. Personal data: deleted with the account.
 */
import * as z from 'zod';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { type Key, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { ATTEMPT_TTL_SECONDS } from './attempt.entity';

export const REVIEW_ATTEMPT_PREFIX = 'REVIEWATTEMPT#';

export const reviewAttemptKey = (userId: number, attemptId: string): Key => ({
  pk: userPartition(userId),
  sk: `${REVIEW_ATTEMPT_PREFIX}${attemptId}`,
});

/** What a review answer returns (and an attempt replays). */
export const ReviewResult = lazySchema(() =>
  z.object({
    correct: z.boolean(),
    /** Shown after a wrong answer. */
    correctAnswer: z.string().optional(),
    /** The question's Leitner box after the answer (the last box when mastered). */
    box: z.number().int().min(1).max(5),
    /** Tehran day it is due again; null once mastered (it left the review). */
    dueOn: z.string().nullable(),
    mastered: z.boolean(),
    /** XP this answer earned (0 when wrong or past the day's review XP cap). */
    xp: z.number().int().nonnegative(),
  }),
);
export type ReviewResult = z.infer<typeof ReviewResult>;

export const ReviewAttemptItem = lazySchema(() =>
  z.object({ questionId: z.number().int(), result: ReviewResult, expiresAt: z.number().int() }).describe('review attempt'),
);
export type ReviewAttempt = z.infer<typeof ReviewAttemptItem>;

/** Transaction item: records `result` for `attemptId`, answered at `nowMs`; fails when the id was used already. */
export const putReviewAttempt = (
  db: Db,
  userId: number,
  attemptId: string,
  questionId: number,
  result: ReviewResult,
  nowMs: number,
): TxItem =>
  put(
    db,
    { ...reviewAttemptKey(userId, attemptId), questionId, result, expiresAt: epochSeconds(nowMs) + ATTEMPT_TTL_SECONDS },
    { condition: 'attribute_not_exists(pk)' },
  );
