/**
 * An answer attempt, the replay record of `POST /api/questions/{id}/answer` with an `attemptId`: pk
 * `USER#<userId>`, sk `ATTEMPT#<attemptId>`; no GSI; TTL `expiresAt` {@link ATTEMPT_TTL_SECONDS} after the
 * answer. Written in the answer's transaction (condition: not there yet), so a retried request replays the
 * first result instead of answering twice. Personal data: deleted with the account.
 */
import * as z from 'zod';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const ATTEMPT_PREFIX = 'ATTEMPT#';
/** How long an attempt can be replayed: 7 days. */
export const ATTEMPT_TTL_SECONDS = 7 * 24 * 3600;

export const attemptKey = (userId: number, attemptId: string): Key => ({ pk: userPartition(userId), sk: `${ATTEMPT_PREFIX}${attemptId}` });

/** What answering returns (and an attempt replays). */
export const AnswerResult = lazySchema(() =>
  z.object({
    correct: z.boolean(),
    /** Shown after a wrong answer so the learner can learn from it. */
    correctAnswer: z.string().optional(),
    hearts: z.number().int(),
    maxHearts: z.number().int(),
    /** Epoch ms the next heart comes back, or null (full, or not enforced). */
    nextHeartAt: z.number().int().nullable(),
    /** The learner's total XP (answers themselves grant none; completions do). */
    xp: z.number().int(),
  }),
);
export type AnswerResult = z.infer<typeof AnswerResult>;

export const AttemptItem = lazySchema(() =>
  z
    .object({
      questionId: z.number().int(),
      result: AnswerResult,
      /** TTL, epoch seconds. */
      expiresAt: z.number().int(),
    })
    .describe('answer attempt'),
);
export type Attempt = z.infer<typeof AttemptItem>;

/** The attempt `attemptId` of the learner, or undefined (strongly consistent; an expired one may still be read). */
export const getAttempt = (db: Db, userId: number, attemptId: string): Promise<Attempt | undefined> =>
  getItem(db, attemptKey(userId, attemptId), AttemptItem);

/** Transaction item: records `result` for `attemptId`, answered at `nowMs`; fails when the id was used already. */
export const putAttempt = (db: Db, userId: number, attemptId: string, questionId: number, result: AnswerResult, nowMs: number): TxItem =>
  put(
    db,
    { ...attemptKey(userId, attemptId), questionId, result, expiresAt: epochSeconds(nowMs) + ATTEMPT_TTL_SECONDS },
    { condition: 'attribute_not_exists(pk)' },
  );
