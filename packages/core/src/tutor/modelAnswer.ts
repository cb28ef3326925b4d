/**
 * The model's answer of a session, streamed (issue 5 §1, §4; issue 26 §3, §4; spec Errors, Limits).
 *
 * The textbook is retrieved and the model called (`grounding.ts`); the model's text goes through `answerStream.ts`
 * (refusal marker, Markdown/LaTeX stripped, released sentence by sentence) and `guardedAnswer.ts`. The reply is
 * returned once the answer's opening is decided — its first sentence released, the refusal marker found in it, or
 * the model done — so every failure before it is a JSON error (503 `assistant_unavailable`, the quota given back
 * by the caller), and a refusal in the opening is sent as the gate's own: `X-Tutor-Outcome: off_topic`.
 *
 * How an answer ends ({@link AnswerOutcome}, logged on the `tutor answer` line); the slot is released in each:
 * - `answer`: complete → recorded (`session.ts` recordAnswer: stored, cached, counted);
 * - `refused`: the marker arrived → the fixed refusal (after the sentences already sent), recordUnstored (nothing
 *   stored or cached, the tokens counted; the quota given back only when the marker came in the opening: after
 *   sentences were sent, the learner got an answer and the question counts);
 * - `time_limit`: the slot's time limit (about 40 s, `slots.ts`) arrived first → the model call is aborted and the
 *   stream ends cleanly with what was written and the closing sentence (`copy.ts` TIME_LIMIT_TEXT); like a failure
 *   it gives the quota back and stores and caches nothing: the learner did not get the answer they asked for;
 * - `length` / `content_filter`: the model stopped before its answer's end, at its token cap or by the provider's
 *   content filter (its `finish_reason`, `ModelChunk.finishReason`) → the stream ends cleanly as at the time limit,
 *   with its own closing sentence (`copy.ts` LENGTH_LIMIT_TEXT, CONTENT_FILTER_TEXT), and recordUnstored: nothing
 *   stored or cached (a cut answer must never be served again from the cache), the tokens counted; the quota given
 *   back only when the model had written none of the answer (then the learner got the closing sentence alone): when
 *   text was sent, the learner got that much of an answer and the question counts, as for a late refusal (asking
 *   again the same way would be cut again, and a question built to reach the cap must not get free answers);
 * - `failed`: the model failed after the opening → the iteration throws (the caller cuts the stream), the quota is
 *   given back.
 * The consumer stopping early (client gone) → the answer is still finished and recorded without being sent (it
 * is in the history; the question counts).
 */
import { logger } from '../log';
import { countEvent, type TutorOutcome } from '../metrics';
import type { FinishReason, ModelChunk, ModelClient, TokenUsage } from '../providers/ports';
import { createAnswerStream } from './answerStream';
import { CONTENT_FILTER_TEXT, inLanguageOf, LENGTH_LIMIT_TEXT, REFUSAL_TEXT, TIME_LIMIT_TEXT } from './copy';
import { tutorErrors } from './errors';
import { groundedMessages } from './grounding';
import { guardedAnswer } from './guardedAnswer';
import { type AnswerSession, closeUnanswered, recordAnswer, recordUnstored, type TutorReply } from './session';

/** How a model answer ended (see the module doc): one enumerated value for the log and for metrics. */
export const ANSWER_OUTCOMES = ['answer', 'refused', 'time_limit', 'length', 'content_filter', 'failed'] as const;
export type AnswerOutcome = (typeof ANSWER_OUTCOMES)[number];

/**
 * The `TutorOutcomes` count of each way a model answer ends (infra/metrics.ts; a refusal here is stage 2's; the token
 * cap and the content filter are both `incomplete`, the log line tells them apart).
 */
const OUTCOME_METRIC = {
  answer: 'answer',
  refused: 'refusal',
  time_limit: 'time_limit',
  length: 'incomplete',
  content_filter: 'incomplete',
  failed: 'failed',
} as const satisfies Record<AnswerOutcome, TutorOutcome['outcome']>;

/** The finish reasons that end an answer before it is complete, and the closing sentence of each. */
const INCOMPLETE = { length: LENGTH_LIMIT_TEXT, content_filter: CONTENT_FILTER_TEXT } as const;
type Incomplete = keyof typeof INCOMPLETE;
const incomplete = (reason: FinishReason | undefined): Incomplete | undefined =>
  reason === 'length' || reason === 'content_filter' ? reason : undefined;

/** The model failed (not the time limit, not the consumer): the answer fails. */
class ModelFailed extends Error {}

/**
 * The model's first text and the rest of its stream; `first` is '' when the model stopped at its cap or by the
 * content filter before writing any (`stopped`). Errors: `assistant_unavailable` when it fails, or ends, before any
 * text.
 */
async function firstText(session: AnswerSession, model: ModelClient, abort: AbortController) {
  let usage: TokenUsage | undefined;
  try {
    const messages = await groundedMessages(session.deps, model, session.resolved, session.history, session.question, abort.signal);
    const iterator = model.streamChat(messages, { signal: abort.signal })[Symbol.asyncIterator]();
    for (;;) {
      const next = await iterator.next();
      if (next.done) throw new Error('The model ended without text');
      if (next.value.usage) usage = next.value.usage;
      const stopped = incomplete(next.value.finishReason);
      if (next.value.text || stopped) return { first: next.value.text ?? '', iterator, usage, stopped };
    }
  } catch (error) {
    abort.abort();
    logger.warn('tutor: model failed before the first byte', { userId: session.userId, error: (error as Error).message });
    countEvent('TutorOutcomes', { outcome: 'failed', stage: 'model' });
    throw tutorErrors.modelFailed();
  }
}

/** Streams the model's answer of `session` (see the module doc). Errors: `assistant_unavailable` before the first byte. */
export async function modelReply(session: AnswerSession, model: ModelClient): Promise<TutorReply> {
  const abort = new AbortController();
  let limitReached = false;
  session.lease.onExpire = () => {
    limitReached = true;
    abort.abort(new Error('The answer took longer than its slot allows'));
  };
  const opened = await firstText(session, model, abort);
  const { iterator } = opened;
  let usage = opened.usage;
  /** The model stopped at its cap or by the content filter (its finish reason). */
  let stopped = opened.stopped;
  /** The model wrote some of the answer's text (all of it is sent, a cut included). */
  let wrote = /\S/.test(opened.first);
  /** How the answer was cut short, when it was. */
  let cutBy: 'time_limit' | Incomplete | undefined;
  const firstTokenMs = Math.round(performance.now() - session.startedAt);
  const answer = guardedAnswer(createAnswerStream(inLanguageOf(REFUSAL_TEXT, session.question)), session.reply);
  let modelDone = false;
  /** Ends the answer early with the closing sentence of `by`, in the question's language. */
  const cut = (by: 'time_limit' | Incomplete): string => {
    cutBy ??= by;
    return answer.cut(inLanguageOf(by === 'time_limit' ? TIME_LIMIT_TEXT : INCOMPLETE[by], session.question));
  };

  /**
   * Reads the model's next chunk into the answer; returns the text to send. At the time limit (the SDK ends an
   * aborted stream quietly or throws) the answer is cut, and at the model's end after a `length` or
   * `content_filter` finish reason; any other error of the model throws {@link ModelFailed}.
   */
  const step = async (): Promise<string> => {
    let next: IteratorResult<ModelChunk>;
    try {
      next = limitReached ? { done: true, value: undefined } : await iterator.next();
    } catch (error) {
      modelDone = true;
      if (limitReached) return cut('time_limit');
      throw new ModelFailed((error as Error).message);
    }
    if (next.done || limitReached) {
      modelDone = true;
      if (limitReached) return cut('time_limit');
      return stopped ? cut(stopped) : answer.end();
    }
    const { text, finishReason } = next.value;
    if (next.value.usage) usage = next.value.usage;
    stopped ??= incomplete(finishReason);
    if (text && /\S/.test(text)) wrote = true;
    // After a refusal the rest is read (and dropped) only to learn the usage.
    return text ? answer.push(text) : '';
  };

  // The opening: read until something can be sent (or the answer was refused or ended).
  let opening = answer.push(opened.first);
  try {
    while (!opening && !modelDone) opening = await step();
  } catch (error) {
    abort.abort();
    logger.warn('tutor: model failed before the first byte', { userId: session.userId, error: (error as Error).message });
    countEvent('TutorOutcomes', { outcome: 'failed', stage: 'model' });
    throw tutorErrors.modelFailed();
  }
  const firstByteMs = Math.round(performance.now() - session.startedAt);
  const refusedEarly = answer.refused;
  const cutEarly = answer.cutShort;

  async function* chunks(): AsyncGenerator<string> {
    let delivered = true;
    let failed = false;
    /** Reads the model to its end without sending (the learner hung up), so that the answer is recorded. */
    const finishUndelivered = async () => {
      delivered = false;
      try {
        while (!modelDone) await step();
      } catch {
        failed = true;
      }
    };
    try {
      yield opening;
      while (!modelDone) {
        const out = await step();
        if (out) yield out;
      }
    } catch (error) {
      // An error thrown in at a `yield` comes from the consumer (the response stream was destroyed).
      if (error instanceof ModelFailed) {
        failed = true;
        logger.warn('tutor: model failed mid-answer; the stream is cut', { userId: session.userId, error: error.message });
      } else {
        await finishUndelivered();
      }
      throw error;
    } finally {
      if (!modelDone && !failed) await finishUndelivered(); // the consumer returned early without an error
      abort.abort();
      session.lease.release();
      const outcome: AnswerOutcome = failed ? 'failed' : answer.refused ? 'refused' : (cutBy ?? 'answer');
      // A refusal in the opening was all the learner got; a later one came after sentences of an answer.
      if (outcome === 'refused') await recordUnstored(session, 'refusedAnswers', usage, !refusedEarly);
      else if (outcome === 'answer') await recordAnswer(session, answer.sent, { model: model.chatModel, usage });
      else if (outcome === 'length' || outcome === 'content_filter') await recordUnstored(session, 'incompleteAnswers', usage, wrote);
      else await closeUnanswered(session);
      countEvent('TutorOutcomes', { outcome: OUTCOME_METRIC[outcome], stage: 'model' });
      logger.info('tutor answer', {
        userId: session.userId,
        outcome,
        delivered,
        context: session.resolved.grounding.context,
        firstTokenMs,
        firstByteMs,
        durationMs: Math.round(performance.now() - session.startedAt),
        promptTokens: usage?.promptTokens ?? null,
        completionTokens: usage?.completionTokens ?? null,
        slotsInUse: session.deps.tutorSlots.stats().inUse,
      });
    }
  }
  return {
    outcome: refusedEarly ? 'off_topic' : 'answer',
    ...(refusedEarly || cutEarly ? {} : { messageId: session.messageId }),
    chunks: chunks(),
  };
}
