/**
 * Conversation records of the tutor (issue 5 §6; spec "Assistant data": conversation messages, the last 6 of
 * which are sent to the model, feedback, token usage). Items: `message.entity.ts`.
 *
 * - `GET /api/ai/history` is one Query of the learner's own messages, newest first; its cursor is the id of the
 *   last message of the previous page. Feedback finds a message with one GetItem in the caller's partition, so
 *   another learner's message id is simply not found (404).
 * - A conversation is the learner's messages about one context (`book:<gradeId>`, `lesson:<lessonId>` or
 *   `question:<questionId>`) within the last {@link CONVERSATION_WINDOW_MINUTES} minutes. Only complete answers
 *   are stored, as a pair (the question at the ask's instant, the answer 1 ms later; also when the learner hung
 *   up before the end); refusals, help-line messages, failed and cut answers are not.
 * - An answer message carries its token usage (`promptTokens`, `completionTokens`; 0 for a cached answer) and
 *   feedback (`rating` up/down, `comment`, `ratedAt`); a later rating replaces the earlier one.
 */
import { isConditionFailure } from '../db/conditions';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import type { ChatMessage, TokenUsage } from '../providers/ports';
import {
  getMessage,
  isMessageId,
  type MessageItem,
  messagePut,
  messagesPage,
  newMessageId,
  rateMessageItem,
  recentConversation,
} from './message.entity';
import { HISTORY_MESSAGES, type Tone } from './prompt';

/** How far back a conversation reaches, minutes. */
export const CONVERSATION_WINDOW_MINUTES = 60;
/** Page size of the history: default and largest. */
export const HISTORY_PAGE = 20;
export const HISTORY_PAGE_MAX = 50;

/** A message as the API shows it (`GET /api/ai/history`, `POST /api/ai/feedback`). */
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
  /** Answers about a practice question: the rung of the hint ladder (1 nudge, 2 method, 3 worked step). */
  hintRung?: number;
  promptTokens?: number;
  completionTokens?: number;
  rating?: 'up' | 'down';
  comment?: string;
}

const toMessage = (m: MessageItem): TutorMessage => ({
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
        ...(m.hintRung ? { hintRung: m.hintRung } : {}),
        ...(m.rating ? { rating: m.rating } : {}),
        ...(m.comment ? { comment: m.comment } : {}),
      }
    : {}),
});

/** A conversation as the next answer needs it. */
export interface ConversationState {
  /** The last {@link HISTORY_MESSAGES} messages, oldest first, as chat messages. */
  history: ChatMessage[];
  /** The hint rung of the tutor's last answer in the conversation (practice questions), if any. */
  lastRung?: number;
  /** Instant of the tutor's last answer in the conversation, epoch ms. */
  lastAnswerAtMs?: number;
}

/** The conversation about `context` at `nowMs` (epoch ms): its last messages, and its last answer's hint rung and instant. */
export async function conversationState(deps: Deps, userId: number, context: string, nowMs: number): Promise<ConversationState> {
  const since = nowMs - CONVERSATION_WINDOW_MINUTES * 60_000;
  const items = await recentConversation(deps.db, userId, context, since, HISTORY_MESSAGES);
  const lastAnswer = items.find((m) => m.role === 'assistant');
  return {
    history: items.map((m) => ({ role: m.role, content: m.text })).reverse(),
    ...(lastAnswer?.hintRung ? { lastRung: lastAnswer.hintRung } : {}),
    ...(lastAnswer ? { lastAnswerAtMs: Date.parse(lastAnswer.createdAt) } : {}),
  };
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
  /** The hint rung of the answer (practice questions). */
  hintRung?: number;
}

/** Transaction items that store a question and its answer (see the module doc). */
export function answerItems(deps: Deps, r: AnswerRecord): TxItem[] {
  const about = { userId: r.userId, context: r.context, lessonId: r.lessonId, questionId: r.questionId };
  return [
    messagePut(deps.db, { ...about, id: newMessageId(r.askedAtMs), role: 'user', text: r.question }),
    messagePut(deps.db, {
      ...about,
      id: r.answerId,
      role: 'assistant',
      text: r.answer,
      tone: r.tone,
      cached: r.cached,
      ...(r.hintRung ? { hintRung: r.hintRung } : {}),
      promptTokens: r.usage?.promptTokens ?? 0,
      completionTokens: r.usage?.completionTokens ?? 0,
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
  const page = await messagesPage(deps.db, userId, { afterId: options.cursor, limit });
  const items = page.items.map(toMessage);
  const last = items.at(-1);
  return { items, ...(page.more && last ? { nextCursor: last.id } : {}) };
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
  const found = await getMessage(deps.db, userId, input.messageId);
  if (!found) throw commonErrors.notFound('Message');
  if (found.role !== 'assistant') {
    throw commonErrors.validation('Feedback is for the tutor’s answers', { messageId: ['Not an answer of the tutor'] });
  }
  try {
    const rated = await rateMessageItem(deps.db, userId, input.messageId, {
      rating: input.rating,
      comment: input.comment,
      ratedAt: new Date(deps.clock.now()).toISOString(),
    });
    return toMessage(rated);
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.notFound('Message');
    throw error;
  }
}
