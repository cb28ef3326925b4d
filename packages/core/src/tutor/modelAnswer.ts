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
 * - `refused`: the marker arrived → the fixed refusal (after the sentences already sent), recordRefusal (nothing
 *   stored or cached, the tokens counted; the quota given back only when the marker came in the opening: after
 *   sentences were sent, the learner got an answer and the question counts);
 * - `time_limit`: the slot's time limit (about 40 s, `slots.ts`) arrived first → the model call is aborted and the
 *   stream ends cleanly with what was written and the closing sentence (`copy.ts` TIME_LIMIT_TEXT); like a failure
 *   it gives the quota back and stores and caches nothing: the learner did not get the answer they asked for;
 * - `failed`: the model failed after the opening → the iteration throws (the caller cuts the stream), the quota is
 *   given back.
 * The consumer stopping early (client gone) → the answer is still finished and recorded without being sent (it
 * is in the history; the question counts).
 */
import { logger } from '../log';
import { countEvent, type TutorOutcome } from '../metrics';
import type { ModelChunk, ModelClient, TokenUsage } from '../providers/ports';
import { createAnswerStream } from './answerStream';
import { inLanguageOf, REFUSAL_TEXT, TIME_LIMIT_TEXT } from './copy';
import { tutorErrors } from './errors';
import { groundedMessages } from './grounding';
import { guardedAnswer } from './guardedAnswer';
import { type AnswerSession, closeUnanswered, recordAnswer, recordRefusal, type TutorReply } from './session';

/** How a model answer ended (see the module doc): one enumerated value for the log and for metrics. */
export const ANSWER_OUTCOMES = ['answer', 'refused', 'time_limit', 'failed'] as const;
export type AnswerOutcome = (typeof ANSWER_OUTCOMES)[number];

/** The `TutorOutcomes` count of each way a model answer ends (infra/metrics.ts; a refusal here is stage 2's). */
const OUTCOME_METRIC = {
  answer: 'answer',
  refused: 'refusal',
  time_limit: 'time_limit',
  failed: 'failed',
} as const satisfies Record<AnswerOutcome, TutorOutcome['outcome']>;

/** The model failed (not the time limit, not the consumer): the answer fails. */
class ModelFailed extends Error {}

/** The model's first text and the rest of its stream. Errors: `assistant_unavailable` when it fails before any text. */
async function firstText(session: AnswerSession, model: ModelClient, abort: AbortController) {
  let usage: TokenUsage | undefined;
  try {
    const messages = await groundedMessages(session.deps, model, session.resolved, session.history, session.question, abort.signal);
    const iterator = model.streamChat(messages, { signal: abort.signal })[Symbol.asyncIterator]();
    for (;;) {
      const next = await iterator.next();
      if (next.done) throw new Error('The model ended without text');
      if (next.value.usage) usage = next.value.usage;
      if (next.value.text) return { first: next.value.text, iterator, usage };
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
  const firstTokenMs = Math.round(performance.now() - session.startedAt);
  const answer = guardedAnswer(createAnswerStream(inLanguageOf(REFUSAL_TEXT, session.question)), session.reply);
  const closing = inLanguageOf(TIME_LIMIT_TEXT, session.question);
  let modelDone = false;

  /**
   * Reads the model's next chunk into the answer; returns the text to send. At the time limit (the SDK ends an
   * aborted stream quietly or throws) the answer is cut; any other error of the model throws {@link ModelFailed}.
   */
  const step = async (): Promise<string> => {
    let next: IteratorResult<ModelChunk>;
    try {
      next = limitReached ? { done: true, value: undefined } : await iterator.next();
    } catch (error) {
      modelDone = true;
      if (limitReached) return answer.cut(closing);
      throw new ModelFailed((error as Error).message);
    }
    if (next.done || limitReached) {
      modelDone = true;
      return limitReached ? answer.cut(closing) : answer.end();
    }
    if (next.value.usage) usage = next.value.usage;
    // After a refusal the rest is read (and dropped) only to learn the usage.
    return next.value.text ? answer.push(next.value.text) : '';
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
      const outcome: AnswerOutcome = failed ? 'failed' : answer.refused ? 'refused' : answer.cutShort ? 'time_limit' : 'answer';
      // A refusal in the opening was all the learner got; a later one came after sentences of an answer.
      if (outcome === 'refused') await recordRefusal(session, usage, !refusedEarly);
      else if (outcome === 'answer') await recordAnswer(session, answer.sent, { model: model.chatModel, usage });
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
