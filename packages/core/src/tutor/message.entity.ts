/**
 * A tutor conversation message (spec "Assistant data": conversation messages, feedback, token usage).
 *
 * | item    | pk              | sk                        | gsi1                                              |
 * |---------|-----------------|---------------------------|---------------------------------------------------|
 * | message | USER#<userId>   | AIMSG#<epochMs13>#<hex8>  | gsi1pk `AICONV#<userId>#<context>`, gsi1sk `<epochMs13>` |
 *
 * A message id is `<epochMs13>-<hex8>`: its sort key with `-` for `#`, so the learner's history is one Query of
 * their own partition (newest first) and a message is found with one GetItem there (another learner's id
 * simply does not exist in the caller's partition). gsi1 groups one conversation: a learner's messages about
 * one context (`book:<gradeId>`, `lesson:<lessonId>`, `question:<questionId>`) by time. No TTL: messages go
 * with the account (personal data, {@link MESSAGE_PREFIX}).
 *
 * A rated answer also carries gsi2 `AIFEEDBACK` / `<ratedAt ISO>#<userId>#<messageId>`, set with its rating:
 * the staff's feedback list, newest first (staffViews.ts).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { encodeCursor } from '../db/cursor';
import { getItem, type Page, parseItem, queryAll, queryPage, updateItem } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** Sort-key prefix of messages in the learner's partition. */
export const MESSAGE_PREFIX = 'AIMSG#';

const MESSAGE_ID = /^(\d{13})-([0-9a-f]{8})$/;
const pad13 = (ms: number) => String(ms).padStart(13, '0');

/** A new message id for instant `ms` (epoch ms). */
export const newMessageId = (ms: number): string => `${pad13(ms)}-${randomBytes(4).toString('hex')}`;
/** Whether `id` has the shape of a message id. */
export const isMessageId = (id: string): boolean => MESSAGE_ID.test(id);
/** The instant of a message id, epoch ms. */
const idMs = (id: string): number => Number(id.slice(0, 13));

export const messageKey = (userId: number, messageId: string): Key => ({
  pk: userPartition(userId),
  sk: `${MESSAGE_PREFIX}${messageId.replace('-', '#')}`,
});
const conversationPartition = (userId: number, context: string): string => `AICONV#${userId}#${context}`;
const FEEDBACK_INDEX = 'AIFEEDBACK';
const feedbackIndexSk = (ratedAt: string, userId: number, messageId: string): string => `${ratedAt}#${userId}#${messageId}`;
/** gsi2 of a rated answer (migrations backfill it with this). */
export const feedbackIndex = (m: Pick<MessageItem, 'ratedAt' | 'userId' | 'id'>) => ({
  gsi2pk: FEEDBACK_INDEX,
  gsi2sk: feedbackIndexSk(m.ratedAt ?? '', m.userId, m.id),
});

/** How the tutor answered (`prompt.ts` Tone), stored on answers and cached answers. */
export const ToneSchema = z.enum(['explain', 'guide']);

export const MessageItem = lazySchema(() =>
  z
    .object({
      /** `<epochMs13>-<hex8>`. */
      id: z.string().regex(MESSAGE_ID),
      userId: z.number().int().positive(),
      role: z.enum(['user', 'assistant']),
      text: z.string(),
      /** `book:<gradeId>`, `lesson:<lessonId>` or `question:<questionId>`. */
      context: z.string(),
      lessonId: z.number().int().optional(),
      questionId: z.number().int().optional(),
      /** ISO time (the instant of the id). */
      createdAt: z.string(),
      /** Answers only: how the tutor answered, whether from the answer cache, the model's tokens (0 when cached). */
      tone: ToneSchema.optional(),
      cached: z.boolean().optional(),
      /** Answers about a practice question: the rung of the hint ladder (1 nudge, 2 method, 3 worked step; `hints.ts`). */
      hintRung: z.number().int().min(1).max(3).optional(),
      promptTokens: z.number().int().nonnegative().optional(),
      completionTokens: z.number().int().nonnegative().optional(),
      /** Answers only: the learner's feedback; a later rating replaces the earlier one. */
      rating: z.enum(['up', 'down']).optional(),
      comment: z.string().optional(),
      /** ISO time of the rating. */
      ratedAt: z.string().optional(),
    })
    .describe('tutor message'),
);
export type MessageItem = z.infer<typeof MessageItem>;

/** Puts `message` (its key and gsi1 follow from its user, id and context): one item of the answer's transaction. */
export const messagePut = (db: Db, message: Omit<MessageItem, 'createdAt'>): TxItem =>
  put(db, {
    ...messageKey(message.userId, message.id),
    gsi1pk: conversationPartition(message.userId, message.context),
    gsi1sk: message.id.slice(0, 13),
    ...message,
    createdAt: new Date(idMs(message.id)).toISOString(),
  });

/**
 * The last `limit` messages of the conversation about `context` at or after `sinceMs` (epoch ms), newest
 * first (gsi1, eventually consistent).
 */
export async function recentConversation(db: Db, userId: number, context: string, sinceMs: number, limit: number): Promise<MessageItem[]> {
  const spec = { index: 'gsi1', partition: conversationPartition(userId, context), sortKey: { gte: pad13(sinceMs) } } as const;
  return (await queryPage(db, { ...spec, descending: true, limit }, MessageItem)).items;
}

/**
 * One page of the learner's messages, newest first: `limit` messages after the message `afterId` (the last
 * one of the previous page); eventually consistent. `more` is true when DynamoDB saw more items after the page.
 */
export async function messagesPage(
  db: Db,
  userId: number,
  options: { afterId?: string; limit: number },
): Promise<{ items: MessageItem[]; more: boolean }> {
  const partition = userPartition(userId);
  const after = options.afterId === undefined ? undefined : encodeCursor({ ...messageKey(userId, options.afterId) }, partition);
  const page = await queryPage(
    db,
    { partition, sortKey: { beginsWith: MESSAGE_PREFIX }, descending: true, limit: options.limit, consistent: false },
    MessageItem,
    after,
  );
  return { items: page.items, more: page.nextCursor !== undefined };
}

/** The learner's message `messageId`, or undefined (strongly consistent). */
export const getMessage = (db: Db, userId: number, messageId: string): Promise<MessageItem | undefined> =>
  getItem(db, messageKey(userId, messageId), MessageItem);

/**
 * Sets the rating of the message (and its comment, or removes an earlier comment) and returns the message
 * after the change. Errors: ConditionalCheckFailedException when the message does not exist.
 */
export async function rateMessageItem(
  db: Db,
  userId: number,
  messageId: string,
  feedback: { rating: 'up' | 'down'; comment?: string; ratedAt: string },
): Promise<MessageItem> {
  const after = await updateItem(
    db,
    messageKey(userId, messageId),
    `SET rating = :r, ratedAt = :t, gsi2pk = :fpk, gsi2sk = :fsk${feedback.comment ? ', #c = :c' : ' REMOVE #c'}`,
    {
      condition: 'attribute_exists(pk)',
      names: { '#c': 'comment' },
      values: {
        ':r': feedback.rating,
        ':t': feedback.ratedAt,
        ':fpk': FEEDBACK_INDEX,
        ':fsk': feedbackIndexSk(feedback.ratedAt, userId, messageId),
        ...(feedback.comment ? { ':c': feedback.comment } : {}),
      },
    },
    'ALL_NEW',
  );
  return parseItem(MessageItem, after);
}

/** One page of rated answers, newest rating first (gsi2), optionally of one rating. Errors: `validation_error` (cursor). */
export const feedbackPage = (db: Db, options: { rating?: 'up' | 'down'; limit: number; cursor?: string }): Promise<Page<MessageItem>> =>
  queryPage(
    db,
    {
      index: 'gsi2',
      partition: FEEDBACK_INDEX,
      descending: true,
      limit: options.limit,
      ...(options.rating ? { filter: { condition: 'rating = :r', values: { ':r': options.rating } } } : {}),
    },
    MessageItem,
    options.cursor,
  );

/** The message just before `messageId` in the learner's partition (an answer's question), or undefined. */
export async function messageBefore(db: Db, userId: number, messageId: string): Promise<MessageItem | undefined> {
  const page = await queryPage(
    db,
    {
      partition: userPartition(userId),
      sortKey: { between: [MESSAGE_PREFIX, messageKey(userId, messageId).sk] },
      descending: true,
      limit: 2,
    },
    MessageItem,
  );
  return page.items.find((m) => m.id !== messageId);
}

/** The learner's rated answers (migrations). */
export const ratedMessagesOf = (db: Db, userId: number): Promise<MessageItem[]> =>
  queryAll(
    db,
    { partition: userPartition(userId), sortKey: { beginsWith: MESSAGE_PREFIX }, filter: { condition: 'attribute_exists(rating)' } },
    MessageItem,
  );
