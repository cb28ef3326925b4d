/**
 * The model's answer of a session, streamed (issue 5 §1, §4; spec Errors, Limits).
 *
 * The textbook is retrieved and the model called (`grounding.ts`); the reply is returned once the model's first
 * text has arrived, so every failure before it is a JSON error (503 `assistant_unavailable`, the quota given back
 * by the caller). The returned `chunks` stream the answer through `answerStream.ts` (refusal marker,
 * Markdown/LaTeX stripped). At the end: complete → recorded (`session.ts` recordAnswer); late refusal marker →
 * recordRefusal; model failure mid-way → the iteration throws (the caller cuts the stream) and the quota is given
 * back; the consumer stopping early (client gone) → the answer is still finished and recorded without being sent
 * (it is in the history; the question counts). The slot is released in every case, and after about 40 s at the
 * latest (the model call is then aborted: a failure).
 */
import { logger } from '../log';
import type { ModelChunk, ModelClient, TokenUsage } from '../providers/ports';
import { createAnswerStream } from './answerStream';
import { inLanguageOf, REFUSAL_TEXT } from './copy';
import { tutorErrors } from './errors';
import { groundedMessages } from './grounding';
import { guardedAnswer } from './guardedAnswer';
import { type AnswerSession, closeUnanswered, recordAnswer, recordRefusal, type TutorReply } from './session';

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
    throw tutorErrors.modelFailed();
  }
}

/** Streams the model's answer of `session` (see the module doc). Errors: `assistant_unavailable` before the first byte. */
export async function modelReply(session: AnswerSession, model: ModelClient): Promise<TutorReply> {
  const abort = new AbortController();
  session.lease.onExpire = () => abort.abort(new Error('The answer took longer than its slot allows'));
  const opened = await firstText(session, model, abort);
  const { iterator } = opened;
  let usage = opened.usage;
  const firstTokenMs = Math.round(performance.now() - session.startedAt);
  const answer = guardedAnswer(createAnswerStream(inLanguageOf(REFUSAL_TEXT, session.question)), session.reply);

  async function* chunks(): AsyncGenerator<string> {
    let state: 'streaming' | 'completed' | 'failed' = 'streaming';
    let delivered = true;
    // Errors of the model (or of its time limit) fail the answer; an error thrown in at a `yield` comes from the
    // consumer (the response stream was destroyed: the client hung up).
    let modelFailed = false;
    const fromModel = async () => {
      try {
        return await iterator.next();
      } catch (error) {
        modelFailed = true;
        throw error;
      }
    };
    /** Feeds one model chunk to the answer; returns the text to send. */
    const absorb = (chunk: ModelChunk): string => {
      if (chunk.usage) usage = chunk.usage;
      // After a refusal the rest is read (and dropped) only to learn the usage.
      return chunk.text && !answer.refused ? answer.push(chunk.text) : '';
    };
    /** The SDK ends an aborted stream quietly; an answer cut by the slot's time limit is a failure. */
    const checkNotAborted = () => {
      if (abort.signal.aborted) {
        modelFailed = true;
        throw abort.signal.reason ?? new Error('The model call was aborted');
      }
    };
    /**
     * The learner hung up: the answer is finished without sending it, so that it is stored (and in the history)
     * like a delivered one; the question stays counted. In AWS a function URL's function usually runs on too.
     */
    const finishUndelivered = async () => {
      delivered = false;
      try {
        for (let next = await fromModel(); !next.done; next = await fromModel()) absorb(next.value);
        checkNotAborted();
        answer.end();
        state = 'completed';
      } catch {
        state = 'failed';
      }
    };
    try {
      const opening = answer.push(opened.first);
      if (opening) yield opening;
      for (let next = await fromModel(); !next.done; next = await fromModel()) {
        const out = absorb(next.value);
        if (out) yield out;
      }
      checkNotAborted();
      const tail = answer.end();
      if (tail) yield tail;
      state = 'completed';
    } catch (error) {
      if (modelFailed) {
        state = 'failed';
        logger.warn('tutor: model failed mid-answer; the stream is cut', { userId: session.userId, error: (error as Error).message });
      } else {
        await finishUndelivered();
      }
      throw error;
    } finally {
      if (state === 'streaming') await finishUndelivered(); // the consumer returned early without an error
      abort.abort();
      session.lease.release();
      if (state === 'failed') await closeUnanswered(session);
      else if (answer.refused) await recordRefusal(session, usage);
      else await recordAnswer(session, answer.sent, { model: model.chatModel, usage });
      logger.info('tutor answer', {
        userId: session.userId,
        outcome: state === 'completed' ? (answer.refused ? 'refused' : 'answer') : state,
        delivered,
        context: session.resolved.grounding.context,
        firstTokenMs,
        durationMs: Math.round(performance.now() - session.startedAt),
        promptTokens: usage?.promptTokens ?? null,
        completionTokens: usage?.completionTokens ?? null,
        slotsInUse: session.deps.tutorSlots.stats().inUse,
      });
    }
  }
  return { outcome: 'answer', messageId: session.messageId, chunks: chunks() };
}
