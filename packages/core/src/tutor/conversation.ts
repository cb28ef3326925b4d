/**
 * Conversation records of the tutor (issue 5 §6; spec "Assistant data": conversation messages, the last 6 of
 * which are sent to the model, feedback, token usage).
 *
 * - A message is `USER#<userId>` / `AIMSG#<epochMs13>#<hex8>`; its id (`<epochMs13>-<hex8>`) is its sort key, so
 *   `GET /api/ai/history` is one Query (newest first) and feedback finds a message with one GetItem in the
 *   caller's own partition: another learner's message id simply does not exist there (404).
 * - A conversation is the learner's messages about one context (`book:<gradeId>`, `lesson:<lessonId>` or
 *   `question:<questionId>`) within the last {@link CONVERSATION_WINDOW_MINUTES} minutes: gsi1
 *   `AICONV#<userId>#<context>` / `<epochMs13>`. Only complete answers are stored, as a pair (the question at the
 *   ask's instant, the answer 1 ms later; also when the learner hung up before the end); refusals, help-line
 *   messages, failed and cut answers are not.
 * - An answer message carries its token usage (`promptTokens`, `completionTokens`; 0 for a cached answer) and
 *   feedback (`rating` up/down, `comment`, `ratedAt`); a later rating replaces the earlier one.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import type { ChatMessage, TokenUsage } from '../providers/ports';
import { HISTORY_MESSAGES, type Tone } from './prompt';

/** How far back a conversation reaches, minutes. */
export const CONVERSATION_WINDOW_MINUTES = 60;
/** Page size of the history: default and largest. */
export const HISTORY_PAGE = 20;
export const HISTORY_PAGE_MAX = 50;

const MESSAGE_ID = /^(\d{13})-([0-9a-f]{8})$/;
const pad13 = (ms: number) => String(ms).padStart(13, '0');

/** A new message id for instant `ms`. */
export const newMessageId = (ms: number): string => `${pad13(ms)}-${randomBytes(4).toString('hex')}`;
/** Whether `id` has the shape of a message id. */
export const isMessageId = (id: string): boolean => MESSAGE_ID.test(id);

export interface TutorMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  context: string;
  lessonId: number | null;
  questionId: number | null;
  /** ISO time. */
  createdAt: string;
  /** Answers only. */
  cached?: boolean;
  tone?: Tone;
  promptTokens?: number;
  completionTokens?: number;
  rating?: 'up' | 'down';
  comment?: string;
}

type Stored = TutorMessage & { userId: number; gsi1pk: string; gsi1sk: string };

const toMessage = (item: Record<string, unknown>): TutorMessage => {
  const m = item as unknown as Stored;
  return {
    id: m.id,
    role: m.role,
    text: m.text,
    context: m.context,
    lessonId: m.lessonId ?? null,
    questionId: m.questionId ?? null,
    createdAt: m.createdAt,
    ...(m.role === 'assistant'
      ? {
          cached: Boolean(m.cached),
          tone: m.tone,
          promptTokens: m.promptTokens ?? 0,
          completionTokens: m.completionTokens ?? 0,
          ...(m.rating ? { rating: m.rating } : {}),
          ...(m.comment ? { comment: m.comment } : {}),
        }
      : {}),
  };
};

/** The conversation's last {@link HISTORY_MESSAGES} messages, oldest first, as chat messages. */
export async function conversationHistory(deps: Deps, userId: number, context: string, nowMs: number): Promise<ChatMessage[]> {
  const result = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
      ExpressionAttributeValues: {
        ':pk': keys.aiConversation(userId, context),
        ':since': pad13(nowMs - CONVERSATION_WINDOW_MINUTES * 60_000),
      },
      ScanIndexForward: false,
      Limit: HISTORY_MESSAGES,
    }),
  );
  return (result.Items ?? []).map((i) => ({ role: i.role as 'user' | 'assistant', content: i.text as string })).reverse();
}

export interface AnswerRecord {
  userId: number;
  context: string;
  lessonId?: number;
  questionId?: number;
  question: string;
  /** Instant of the ask, epoch ms (the question's id time); the answer is stored 1 ms later. */
  askedAtMs: number;
  answerId: string;
  answer: string;
  tone: Tone;
  cached: boolean;
  usage?: TokenUsage;
}

/** Transaction items that store a question and its answer (see the module doc). */
export function answerItems(deps: Deps, r: AnswerRecord): TxItem[] {
  const base = {
    userId: r.userId,
    context: r.context,
    ...(r.lessonId !== undefined ? { lessonId: r.lessonId } : {}),
    ...(r.questionId !== undefined ? { questionId: r.questionId } : {}),
    gsi1pk: keys.aiConversation(r.userId, r.context),
  };
  const questionId = newMessageId(r.askedAtMs);
  const answerMs = Number(r.answerId.slice(0, 13));
  return [
    put(deps.db, {
      ...keys.aiMessage(r.userId, questionId),
      ...base,
      id: questionId,
      role: 'user',
      text: r.question,
      createdAt: new Date(r.askedAtMs).toISOString(),
      gsi1sk: pad13(r.askedAtMs),
    }),
    put(deps.db, {
      ...keys.aiMessage(r.userId, r.answerId),
      ...base,
      id: r.answerId,
      role: 'assistant',
      text: r.answer,
      tone: r.tone,
      cached: r.cached,
      promptTokens: r.usage?.promptTokens ?? 0,
      completionTokens: r.usage?.completionTokens ?? 0,
      createdAt: new Date(answerMs).toISOString(),
      gsi1sk: pad13(answerMs),
    }),
  ];
}

/**
 * The caller's messages, newest first, `limit` per page (default {@link HISTORY_PAGE}, at most
 * {@link HISTORY_PAGE_MAX}); `cursor` is the `nextCursor` of the previous page (the last message id).
 * Errors: `validation_error` for a malformed cursor.
 */
export async function listHistory(
  deps: Deps,
  userId: number,
  options: { cursor?: string; limit?: number } = {},
): Promise<{ items: TutorMessage[]; nextCursor?: string }> {
  if (options.cursor !== undefined && !isMessageId(options.cursor)) {
    throw commonErrors.validation('The cursor is not valid', { cursor: ['Not a cursor of this list'] });
  }
  const limit = Math.min(Math.max(options.limit ?? HISTORY_PAGE, 1), HISTORY_PAGE_MAX);
  const result = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.aiMessagePrefix },
      ScanIndexForward: false,
      Limit: limit,
      ...(options.cursor ? { ExclusiveStartKey: keys.aiMessage(userId, options.cursor) } : {}),
    }),
  );
  const items = (result.Items ?? []).map(toMessage);
  const last = items.at(-1);
  return { items, ...(result.LastEvaluatedKey && last ? { nextCursor: last.id } : {}) };
}

/**
 * Records the caller's feedback on one of the tutor's answers to them.
 * Errors: `not_found` (no such message of the caller's: a malformed id, another learner's message),
 * `validation_error` (the message is the learner's own question).
 */
export async function rateMessage(
  deps: Deps,
  userId: number,
  input: { messageId: string; rating: 'up' | 'down'; comment?: string },
): Promise<TutorMessage> {
  if (!isMessageId(input.messageId)) throw commonErrors.notFound('Message');
  const key = keys.aiMessage(userId, input.messageId);
  const found = (await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: key, ConsistentRead: true }))).Item;
  if (!found) throw commonErrors.notFound('Message');
  if (found.role !== 'assistant') {
    throw commonErrors.validation('Feedback is for the tutor’s answers', { messageId: ['Not an answer of the tutor'] });
  }
  try {
    const result = await deps.db.doc.send(
      new UpdateCommand({
        TableName: deps.db.tableName,
        Key: key,
        UpdateExpression: input.comment ? 'SET rating = :r, ratedAt = :t, #c = :c' : 'SET rating = :r, ratedAt = :t REMOVE #c',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#c': 'comment' },
        ExpressionAttributeValues: {
          ':r': input.rating,
          ':t': new Date(deps.clock.now()).toISOString(),
          ...(input.comment ? { ':c': input.comment } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toMessage(result.Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.notFound('Message');
    throw error;
  }
}
