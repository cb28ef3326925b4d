/**
 * `POST /api/ai/ask`: one question to the tutor, answered as a stream of plain text (issue 5; spec Endpoints,
 * Errors, Limits, "Assistant data").
 *
 * Order of the steps, each only when the previous passed:
 * 1. Pre-filter (`filter.ts`): self-harm → the help-line message; off-topic → the fixed refusal. Neither calls
 *    the model, spends quota, takes a slot or is stored.
 * 2. The tutor must be on (OPENAI_API_KEY not empty), else 503 `assistant_unavailable`.
 * 3. Grounding: the practice question (questionId), the lesson (lessonId) or the learner's grade book;
 *    unknown ids → 404, a questionId of another lesson than lessonId → 400.
 * 4. A concurrency slot of this worker, else 503 `assistant_busy` (nothing reserved yet).
 * 5. The daily quota, reserved atomically with the DAY# activity counter (`quota.ts`), else 429
 *    `ai_quota_exceeded`; the conversation's last 6 messages are read meanwhile.
 * 6. The answer cache: a hit is streamed without a model call.
 * 7. Retrieval of the textbook chunks (embeddings call) and the model call; the reply is returned once the
 *    model's first text has arrived, so every failure before it is a JSON error (503, quota given back).
 * 8. The returned `chunks` stream the answer through `answerStream.ts` (refusal marker, Markdown/LaTeX
 *    stripped). At the end: complete → question and answer stored, answer cached, usage recorded; late refusal
 *    marker → nothing stored or cached, the quota given back, usage recorded; model failure mid-way → the
 *    iteration throws (the caller cuts the stream) and the quota is given back; the consumer stopping early
 *    (client gone) → the answer is still finished and stored without being sent (it is in the history; the
 *    question counts). The slot is released in every case, and after about 40 s at the latest (the model call
 *    is then aborted: a failure).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_GRADE_ID, type User } from '../auth';
import type { Question } from '../curriculum/store';
import { keys } from '../db/keys';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { logger } from '../log';
import type { ChatMessage, ModelChunk, ModelClient, TokenUsage } from '../providers/ports';
import { createAnswerStream } from './answerStream';
import { answerCacheKey, cacheAnswerItem, cachedAnswer } from './cache';
import { answerItems, conversationHistory, newMessageId } from './conversation';
import { HELP_LINE_TEXT, inLanguageOf, REFUSAL_TEXT } from './copy';
import { tutorErrors } from './errors';
import { classifyQuestion } from './filter';
import { buildMessages, type Grounding } from './prompt';
import { giveBackQuota, type QuotaReservation, reserveQuota } from './quota';
import { retrieve } from './rag';
import { usageItems } from './usage';

/** Longest userQuestion, characters (spec Limits). */
export const USER_QUESTION_MAX = 2000;

export interface AskInput {
  userQuestion: string;
  lessonId?: number;
  questionId?: number;
}

export type AskOutcome = 'answer' | 'cached' | 'off_topic' | 'help_line';

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

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

const display = (q: Question, answer: string) => {
  const choice = q.choices?.find((c) => c.id === answer);
  return choice ? `${choice.id}) ${choice.text}` : answer;
};

interface Resolved {
  grounding: Omit<Grounding, 'chunks'>;
  lessonId?: number;
  questionId?: number;
  wrongAnswer?: string;
}

/** The grounding of a question (step 3). Errors: `not_found`, `validation_error`. */
async function resolveGrounding(deps: Deps, user: User, input: AskInput): Promise<Resolved> {
  const curriculum = await deps.content.get();
  if (input.questionId !== undefined) {
    const q = curriculum.question(input.questionId);
    if (!q) throw commonErrors.notFound('Question');
    if (input.lessonId !== undefined && input.lessonId !== q.lessonId) {
      throw commonErrors.validation('The question is not part of this lesson', { questionId: ['Not a question of lessonId'] });
    }
    const lesson = curriculum.lesson(q.lessonId);
    const wrong = (
      await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.wrongAnswer(user.id, q.id), ConsistentRead: true }))
    ).Item?.answer as string | undefined;
    return {
      lessonId: q.lessonId,
      questionId: q.id,
      wrongAnswer: wrong,
      grounding: {
        gradeId: q.gradeId,
        lesson: lesson ? { id: lesson.id, title: lesson.title, body: lesson.body } : undefined,
        question: {
          id: q.id,
          text: q.text,
          choices: q.choices?.map((c) => `${c.id}) ${c.text}`),
          correctAnswer: display(q, q.answer),
          ...(wrong !== undefined ? { lastWrongAnswer: display(q, wrong) } : {}),
        },
        tone: 'guide',
        context: `question:${q.id}`,
      },
    };
  }
  if (input.lessonId !== undefined) {
    const lesson = curriculum.lesson(input.lessonId);
    if (!lesson) throw commonErrors.notFound('Lesson');
    return {
      lessonId: lesson.id,
      grounding: {
        gradeId: lesson.gradeId,
        lesson: { id: lesson.id, title: lesson.title, body: lesson.body },
        tone: 'explain',
        context: `lesson:${lesson.id}`,
      },
    };
  }
  const gradeId = user.gradeId ?? DEFAULT_GRADE_ID;
  return { grounding: { gradeId, tone: 'explain', context: `book:${gradeId}` } };
}

/** Writes `items`, logging instead of throwing: the answer has been delivered by then. */
async function record(deps: Deps, items: Parameters<typeof transact>[1], what: string): Promise<void> {
  try {
    await transact(deps.db, items);
  } catch (error) {
    logger.error(`tutor: could not record ${what}`, error as Error);
  }
}

/**
 * Answers `input.userQuestion` for `user` (see the module doc for the steps and what each outcome does).
 * Errors before the reply (mapped to HTTP by the caller): `assistant_unavailable`, `not_found`,
 * `validation_error`, `assistant_busy`, `ai_quota_exceeded`, `database_busy`.
 */
export async function askTutor(deps: Deps, user: User, input: AskInput): Promise<TutorReply> {
  const started = performance.now();
  const verdict = classifyQuestion(input.userQuestion);
  if (verdict.kind === 'self_harm') {
    logger.info('tutor pre-filter', { userId: user.id, outcome: 'help_line' });
    return { outcome: 'help_line', chunks: once(inLanguageOf(HELP_LINE_TEXT, input.userQuestion)) };
  }
  if (verdict.kind === 'off_topic') {
    logger.info('tutor pre-filter', { userId: user.id, outcome: 'off_topic' });
    return { outcome: 'off_topic', chunks: once(inLanguageOf(REFUSAL_TEXT, input.userQuestion)) };
  }
  const model = deps.model;
  if (!model) throw tutorErrors.off();
  const resolved = await resolveGrounding(deps, user, input);
  const lease = deps.tutorSlots.tryAcquire();
  if (!lease) throw tutorErrors.busy();
  let reservation: QuotaReservation | undefined;
  try {
    // The conversation is read while the quota is reserved (one round trip less before the first byte).
    const [reserved, history] = await Promise.allSettled([
      reserveQuota(deps, user),
      conversationHistory(deps, user.id, resolved.grounding.context, deps.clock.now()),
    ]);
    if (reserved.status === 'rejected') throw reserved.reason;
    reservation = reserved.value;
    if (history.status === 'rejected') throw history.reason;
    const cacheKey = answerCacheKey({
      model: model.chatModel,
      tone: resolved.grounding.tone,
      context: resolved.grounding.context,
      wrongAnswer: resolved.wrongAnswer,
      history: history.value,
      question: input.userQuestion,
    });
    const messageId = newMessageId(reservation.atMs + 1);
    const base = {
      userId: user.id,
      context: resolved.grounding.context,
      lessonId: resolved.lessonId,
      questionId: resolved.questionId,
      question: input.userQuestion,
      askedAtMs: reservation.atMs,
      answerId: messageId,
      tone: resolved.grounding.tone,
    };
    const hit = await cachedAnswer(deps, cacheKey);
    if (hit !== undefined) {
      const r = reservation;
      return {
        outcome: 'cached',
        messageId,
        chunks: (async function* () {
          try {
            yield hit;
          } finally {
            // Stored even when the learner hung up (as a model answer would be): the answer is complete.
            lease.release();
            await record(
              deps,
              [...answerItems(deps, { ...base, answer: hit, cached: true }), ...usageItems(deps, user.id, r.atMs, 'cachedAnswers')],
              'a cached answer',
            );
            logger.info('tutor answer', {
              userId: user.id,
              outcome: 'cached',
              context: base.context,
              durationMs: Math.round(performance.now() - started),
            });
          }
        })(),
      };
    }
    return await streamAnswer(deps, model, lease, reservation, resolved, history.value, input.userQuestion, {
      cacheKey,
      messageId,
      base,
      started,
    });
  } catch (error) {
    lease.release();
    if (reservation) await giveBackQuota(deps, reservation);
    throw error;
  }
}

/** Steps 7 and 8 of the module doc. Throws `assistant_unavailable` when the model fails before its first text. */
async function streamAnswer(
  deps: Deps,
  model: ModelClient,
  lease: NonNullable<ReturnType<Deps['tutorSlots']['tryAcquire']>>,
  reservation: QuotaReservation,
  resolved: Resolved,
  history: ChatMessage[],
  question: string,
  meta: {
    cacheKey: string;
    messageId: string;
    base: Omit<Parameters<typeof answerItems>[1], 'answer' | 'cached' | 'usage'>;
    started: number;
  },
): Promise<TutorReply> {
  const abort = new AbortController();
  lease.onExpire = () => abort.abort(new Error('The answer took longer than its slot allows'));
  let iterator: AsyncIterator<ModelChunk>;
  let first: string | undefined;
  let usage: TokenUsage | undefined;
  try {
    const chunks = await retrieve(deps, model, {
      gradeId: resolved.grounding.gradeId,
      lessonId: resolved.lessonId,
      query: question,
      signal: abort.signal,
    });
    const messages = buildMessages({ ...resolved.grounding, chunks }, history, question);
    iterator = model.streamChat(messages, { signal: abort.signal })[Symbol.asyncIterator]();
    while (first === undefined) {
      const next = await iterator.next();
      if (next.done) throw new Error('The model ended without text');
      if (next.value.usage) usage = next.value.usage;
      if (next.value.text) first = next.value.text;
    }
  } catch (error) {
    abort.abort();
    logger.warn('tutor: model failed before the first byte', { userId: reservation.userId, error: (error as Error).message });
    throw tutorErrors.modelFailed();
  }
  const firstTokenMs = Math.round(performance.now() - meta.started);
  const answer = createAnswerStream(inLanguageOf(REFUSAL_TEXT, question));
  const firstText = first;
  const modelIterator = iterator;

  async function* chunks(): AsyncGenerator<string> {
    let state: 'streaming' | 'completed' | 'failed' = 'streaming';
    let delivered = true;
    // Errors of the model (or of its time limit) fail the answer; an error thrown in at a `yield` comes from the
    // consumer (the response stream was destroyed: the client hung up).
    let modelFailed = false;
    const fromModel = async () => {
      try {
        return await modelIterator.next();
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
      const opening = answer.push(firstText);
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
        logger.warn('tutor: model failed mid-answer; the stream is cut', { userId: reservation.userId, error: (error as Error).message });
      } else {
        await finishUndelivered();
      }
      throw error;
    } finally {
      if (state === 'streaming') await finishUndelivered(); // the consumer returned early without an error
      abort.abort();
      lease.release();
      if (state === 'completed' && !answer.refused) {
        await record(
          deps,
          [
            ...answerItems(deps, { ...meta.base, answer: answer.sent, cached: false, usage }),
            cacheAnswerItem(deps, meta.cacheKey, answer.sent, resolved.grounding.tone, model.chatModel, deps.clock.now()),
            ...usageItems(deps, reservation.userId, reservation.atMs, 'answers', usage),
          ],
          'an answer',
        );
      } else if (state === 'completed') {
        await giveBackQuota(deps, reservation);
        await record(deps, usageItems(deps, reservation.userId, reservation.atMs, 'refusedAnswers', usage), 'a refusal');
      } else {
        await giveBackQuota(deps, reservation);
      }
      logger.info('tutor answer', {
        userId: reservation.userId,
        outcome: state === 'completed' ? (answer.refused ? 'refused' : 'answer') : state,
        delivered,
        context: resolved.grounding.context,
        firstTokenMs,
        durationMs: Math.round(performance.now() - meta.started),
        promptTokens: usage?.promptTokens ?? null,
        completionTokens: usage?.completionTokens ?? null,
        slotsInUse: deps.tutorSlots.stats().inUse,
      });
    }
  }
  return { outcome: 'answer', messageId: meta.messageId, chunks: chunks() };
}
