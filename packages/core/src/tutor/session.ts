/**
 * One answer session of the tutor (issue 5 §5, §6; spec Limits, "Assistant data"): what an answer holds
 * while it is written, and what is recorded when it ends.
 *
 * Opening takes a concurrency slot of this worker (`slots.ts`; none free → 503 `assistant_busy`, nothing
 * reserved), then reserves the daily quota (`quota.ts`) while the conversation's last messages are read. The
 * session ends in one of three ways, and the slot is released in each:
 * - answered ({@link recordAnswer}): question and answer stored, the answer cached (unless it came from the
 *   cache), the usage recorded;
 * - refused by the model, or stopped by it at its token cap or by the content filter ({@link recordUnstored}):
 *   nothing stored or cached, the usage recorded; the quota given back when the learner got none of an answer;
 * - failed, or cut at the time limit ({@link closeUnanswered}): nothing stored or cached, the quota given back.
 * Recording happens after the answer was delivered: a write that fails then is logged, never raised.
 */
import type { User } from '../auth';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { logger } from '../log';
import { countEvent } from '../metrics';
import type { ChatMessage, TokenUsage } from '../providers/ports';
import type { AnswerKey } from './answerForms';
import { answerCacheKey, cacheAnswerItem } from './cache';
import { answerItems, type ConversationState, conversationState } from './conversation';
import { inLanguageOf, PRIVACY_NOTE } from './copy';
import { tutorErrors } from './errors';
import type { ResolvedGrounding } from './grounding';
import { attemptSentence, displayAnswer, type HintStep, planHint } from './hints';
import { newMessageId } from './message.entity';
import { giveBackQuota, type QuotaReservation, reserveQuota } from './quota';
import type { SlotLease } from './slots';
import { isPersian } from './text';
import { usageItems } from './usage';

/**
 * How a request ended, sent as `X-Tutor-Outcome`: an answer (from the model or the cache), or a fixed message:
 * `off_topic` the refusal (the gate's stage 1, or the model's marker in the answer's opening: `modelAnswer.ts`),
 * `help_line` self-harm, `abuse_help` abuse, `personal_data` personal data without a math question
 * (`gate/screen.ts`).
 */
export type AskOutcome = 'answer' | 'cached' | 'off_topic' | 'help_line' | 'abuse_help' | 'personal_data';

/** What the answer's stream does beyond the model's text (`guardedAnswer.ts`). */
export interface ReplyShape {
  /** Fixed sentences sent before the model's text (the privacy note, whether the attempt was right); may be ''. */
  prelude: string;
  /** The practice question's answer key: its answer is masked in the stream. */
  answerKey?: AnswerKey;
  /** The request is in Persian (the mask character, the fixed texts' language). */
  persian: boolean;
  /** The hint rung of this answer (practice questions), stored with it. */
  hintRung?: number;
}

export interface TutorReply {
  outcome: AskOutcome;
  /** Id of the answer message (`answer`, `cached`): stored under it when the answer completes. */
  messageId?: string;
  /**
   * The text to send, piece by piece. Iterating it drives the rest of the model call and the bookkeeping; it
   * throws when the model fails mid-way (then cut the stream: the learner must see an incomplete answer).
   */
  chunks: AsyncIterable<string>;
}

export interface AnswerSession {
  deps: Deps;
  userId: number;
  lease: SlotLease;
  reservation: QuotaReservation;
  resolved: ResolvedGrounding;
  question: string;
  /** The conversation's last messages, oldest first. */
  history: ChatMessage[];
  /** The answer cache key of this question with its grounding and history (`cache.ts`). */
  cacheKey: string;
  /** Id of the answer message, 1 ms after the question's. */
  messageId: string;
  /** `performance.now()` when the ask arrived, for the log's durations. */
  startedAt: number;
  reply: ReplyShape;
}

/** The grounding with the hint step of a practice question, and the reply's shape (see {@link ReplyShape}). */
function shapeReply(
  resolved: ResolvedGrounding,
  conversation: ConversationState,
  question: string,
  redacted: boolean,
): { resolved: ResolvedGrounding; reply: ReplyShape; hint?: HintStep } {
  const persian = isPersian(question);
  const notes = redacted ? [inLanguageOf(PRIVACY_NOTE, question)] : [];
  const practice = resolved.practice;
  if (!practice) return { resolved, reply: { prelude: notes.join(' '), persian } };
  const hint = planHint(practice.key, conversation, practice.attempt, question);
  if (hint.report) notes.push(attemptSentence(practice.key, hint.report, persian));
  const attempt = hint.attempt && {
    shown: displayAnswer(practice.key, hint.attempt.answer),
    correct: hint.attempt.correct,
    told: hint.report !== undefined,
  };
  return {
    resolved: { ...resolved, grounding: { ...resolved.grounding, hint: { rung: hint.rung, ...(attempt ? { attempt } : {}) } } },
    reply: { prelude: notes.join(' '), answerKey: practice.key, persian, hintRung: hint.rung },
    hint,
  };
}

/**
 * Takes a slot and reserves the quota for `question`. Errors: `assistant_busy` (no free slot),
 * `ai_quota_exceeded`, `database_busy`; on any error nothing stays held or reserved.
 */
export async function openSession(
  deps: Deps,
  user: User,
  grounded: ResolvedGrounding,
  question: string,
  chatModel: string,
  startedAt: number,
  options: { redacted?: boolean } = {},
): Promise<AnswerSession> {
  const lease = deps.tutorSlots.tryAcquire();
  if (!lease) throw tutorErrors.busy();
  let reservation: QuotaReservation | undefined;
  try {
    // The conversation is read while the quota is reserved (one round trip less before the first byte).
    const [reserved, conversation] = await Promise.allSettled([
      reserveQuota(deps, user),
      conversationState(deps, user.id, grounded.grounding.context, deps.clock.now()),
    ]);
    if (reserved.status === 'rejected') throw reserved.reason;
    reservation = reserved.value;
    if (conversation.status === 'rejected') throw conversation.reason;
    const history = conversation.value.history;
    const { resolved, reply } = shapeReply(grounded, conversation.value, question, options.redacted ?? false);
    const cacheKey = answerCacheKey({
      model: chatModel,
      tone: resolved.grounding.tone,
      context: resolved.grounding.context,
      wrongAnswer: resolved.wrongAnswer,
      history,
      question,
      reply: JSON.stringify([reply.prelude, resolved.grounding.hint ?? null]),
    });
    const messageId = newMessageId(reservation.atMs + 1);
    return { deps, userId: user.id, lease, reservation, resolved, question, history, cacheKey, messageId, startedAt, reply };
  } catch (error) {
    lease.release();
    if (reservation) await giveBackQuota(deps, reservation);
    throw error;
  }
}

/** Ends a session without an answer: the slot released, the quota given back. */
export async function closeUnanswered(session: AnswerSession): Promise<void> {
  session.lease.release();
  await giveBackQuota(session.deps, session.reservation);
}

/** Writes `items`, logging instead of throwing: the answer has been delivered by then. */
async function record(deps: Deps, items: TxItem[], what: string): Promise<void> {
  try {
    await transact(deps.db, items);
  } catch (error) {
    logger.error(`tutor: could not record ${what}`, error as Error);
  }
}

/**
 * Records a complete answer: question and answer messages and the usage; a model answer (`model` given) is
 * also cached.
 */
export async function recordAnswer(session: AnswerSession, answer: string, from: { model: string; usage?: TokenUsage } | 'cache') {
  const { deps, reservation, resolved } = session;
  const cached = from === 'cache';
  const usage = cached ? undefined : from.usage;
  const items = answerItems(deps, {
    userId: session.userId,
    context: resolved.grounding.context,
    lessonId: resolved.lessonId,
    questionId: resolved.questionId,
    question: session.question,
    askedAtMs: reservation.atMs,
    answerId: session.messageId,
    answer,
    tone: resolved.grounding.tone,
    cached,
    usage,
    hintRung: session.reply.hintRung,
  });
  if (!cached) items.push(cacheAnswerItem(deps, session.cacheKey, answer, resolved.grounding.tone, from.model, deps.clock.now()));
  items.push(...usageItems(deps, session.userId, reservation.atMs, cached ? 'cachedAnswers' : 'answers', usage));
  await record(deps, items, cached ? 'a cached answer' : 'an answer');
}

/**
 * Records a model answer that is not stored or cached, with the model's usage counted as `outcome`: a refusal
 * (`refusedAnswers`, the marker arrived) or an answer the model stopped before its end (`incompleteAnswers`: its
 * token cap or the provider's content filter; a cut answer is never served again). The question's quota is given
 * back only when the learner got none of an answer (`answered` false: the refusal in the opening, or a stop before the
 * model wrote any text). When part of an answer was sent the question counts: a question that asks the model to end
 * with the marker, or to run into the cap, would otherwise get its answers for free (spec Limits: the daily quota).
 */
export async function recordUnstored(
  session: AnswerSession,
  outcome: 'refusedAnswers' | 'incompleteAnswers',
  usage: TokenUsage | undefined,
  answered: boolean,
): Promise<void> {
  if (!answered) await giveBackQuota(session.deps, session.reservation);
  const what = outcome === 'refusedAnswers' ? 'a refusal' : 'an incomplete answer';
  await record(session.deps, usageItems(session.deps, session.userId, session.reservation.atMs, outcome, usage), what);
}

/** The reply of a cache hit: `answer` in one piece, recorded when the consumer is done (also when it hung up). */
export function cachedReply(session: AnswerSession, answer: string): TutorReply {
  return {
    outcome: 'cached',
    messageId: session.messageId,
    chunks: (async function* () {
      try {
        yield answer;
      } finally {
        // Stored even when the learner hung up (as a model answer would be): the answer is complete.
        session.lease.release();
        await recordAnswer(session, answer, 'cache');
        countEvent('TutorOutcomes', { outcome: 'answer', stage: 'cache' });
        logger.info('tutor answer', {
          userId: session.userId,
          outcome: 'cached',
          context: session.resolved.grounding.context,
          durationMs: Math.round(performance.now() - session.startedAt),
        });
      }
    })(),
  };
}
