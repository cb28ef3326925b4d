/**
 * The learner's latest answer to one question: pk `USER#<userId>`, sk `ANSWER#<nodeId 8>#<questionId 10>`; no
 * GSI, no TTL. One item per question, overwritten by every answer; the node's items are read together by a
 * completion (sort key prefix `ANSWER#<nodeId 8>#`). Personal data: deleted with the account.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const ANSWER_PREFIX = 'ANSWER#';

const nodeAnswersPrefix = (nodeId: number): string => `${ANSWER_PREFIX}${pad(nodeId, 8)}#`;

export const answerKey = (userId: number, nodeId: number, questionId: number): Key => ({
  pk: userPartition(userId),
  sk: `${nodeAnswersPrefix(nodeId)}${pad(questionId, 10)}`,
});

export const AnswerItem = lazySchema(() =>
  z
    .object({
      questionId: z.number().int(),
      lessonId: z.number().int(),
      nodeId: z.number().int(),
      correct: z.boolean(),
      /** ISO time. */
      answeredAt: z.string(),
    })
    .describe('latest answer'),
);
export type LatestAnswer = z.infer<typeof AnswerItem>;

/** The learner's latest answers to the questions of `nodeId`, by question id (strongly consistent Query). */
export async function nodeAnswers(db: Db, userId: number, nodeId: number): Promise<Map<number, LatestAnswer>> {
  const items = await queryAll(db, { partition: userPartition(userId), sortKey: { beginsWith: nodeAnswersPrefix(nodeId) } }, AnswerItem);
  return new Map(items.map((a) => [a.questionId, a]));
}

/**
 * The learner's latest answer to `questionId` (of node `nodeId`), or undefined when they never answered it
 * (strongly consistent). Read by the tutor to tell whether the learner's last attempt was right (issue 16 §4).
 */
export const latestAnswer = (db: Db, userId: number, nodeId: number, questionId: number): Promise<LatestAnswer | undefined> =>
  getItem(db, answerKey(userId, nodeId, questionId), AnswerItem);

/** Transaction item: `answer` becomes the learner's latest answer to its question (unconditional). */
export const putLatestAnswer = (db: Db, userId: number, answer: LatestAnswer): TxItem =>
  put(db, { ...answerKey(userId, answer.nodeId, answer.questionId), ...answer });
