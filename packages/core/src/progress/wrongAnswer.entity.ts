/**
 * The learner's last wrong answer to a question: pk `USER#<userId>`, sk `WRONG#<questionId 10 digits>`; no
 * GSI, no TTL. Written by answering (progress/) in the answer's transaction; read by the tutor when a request
 * names a `questionId` (spec `POST /api/ai/ask`: "gives the tutor the practice question and the learner's wrong
 * answer"). Personal data: deleted with the account.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const WRONG_ANSWER_PREFIX = 'WRONG#';

export const wrongAnswerKey = (userId: number, questionId: number): Key => ({
  pk: userPartition(userId),
  sk: `${WRONG_ANSWER_PREFIX}${pad(questionId, 10)}`,
});

export const WrongAnswerItem = lazySchema(() =>
  z
    .object({
      questionId: z.number().int(),
      /** The answer as the learner sent it. */
      answer: z.string(),
      /** ISO time. */
      answeredAt: z.string(),
    })
    .describe('last wrong answer'),
);
export type WrongAnswer = z.infer<typeof WrongAnswerItem>;

/** The learner's last wrong answer to `questionId`, or undefined when they never answered it wrongly. */
export const lastWrongAnswer = (db: Db, userId: number, questionId: number): Promise<WrongAnswer | undefined> =>
  getItem(db, wrongAnswerKey(userId, questionId), WrongAnswerItem);

/** Transaction item: `wrong` becomes the learner's last wrong answer to its question (unconditional). */
export const putWrongAnswer = (db: Db, userId: number, wrong: WrongAnswer): TxItem =>
  put(db, { ...wrongAnswerKey(userId, wrong.questionId), ...wrong });
