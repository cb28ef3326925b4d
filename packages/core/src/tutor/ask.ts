/**
 * `POST /api/ai/ask`: one question to the tutor, answered as a stream of plain text (issue 5; spec Endpoints,
 * Errors, Limits, "Assistant data").
 *
 * Order of the steps, each only when the previous passed:
 * 1. Pre-filter (`filter.ts`): self-harm → the help-line message; off-topic → the fixed refusal. Neither calls
 *    the model, spends quota, takes a slot or is stored.
 * 2. The tutor must be on (OPENAI_API_KEY not empty), else 503 `assistant_unavailable`.
 * 3. Grounding (`grounding.ts`): the practice question (questionId), the lesson (lessonId) or the learner's grade
 *    book; unknown ids → 404, a questionId of another lesson than lessonId → 400.
 * 4. The answer session (`session.ts`): a concurrency slot of this worker, else 503 `assistant_busy` (nothing
 *    reserved yet); then the daily quota, reserved atomically with the DAY# activity counter (`quota.ts`), else
 *    429 `ai_quota_exceeded`; the conversation's last 6 messages are read meanwhile.
 * 5. The answer cache (`cache.ts`): a hit is streamed without a model call.
 * 6. Otherwise the model's answer (`modelAnswer.ts`): textbook retrieval and the model call, returned once the
 *    model's first text has arrived, so every failure before it is a JSON error (503, quota given back).
 */
import type { User } from '../auth';
import type { Deps } from '../deps';
import { logger } from '../log';
import { cachedAnswer } from './cache';
import { HELP_LINE_TEXT, inLanguageOf, REFUSAL_TEXT } from './copy';
import { tutorErrors } from './errors';
import { classifyQuestion } from './filter';
import { resolveGrounding } from './grounding';
import { modelReply } from './modelAnswer';
import { cachedReply, closeUnanswered, openSession, type TutorReply } from './session';

/** Longest userQuestion, characters (spec Limits). */
export const USER_QUESTION_MAX = 2000;

export interface AskInput {
  userQuestion: string;
  lessonId?: number;
  questionId?: number;
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/**
 * Answers `input.userQuestion` for `user` (see the module doc for the steps and what each outcome does).
 * Errors before the reply (mapped to HTTP by the caller): `assistant_unavailable`, `not_found`,
 * `validation_error`, `assistant_busy`, `ai_quota_exceeded`, `database_busy`.
 */
export async function askTutor(deps: Deps, user: User, input: AskInput): Promise<TutorReply> {
  const startedAt = performance.now();
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
  const session = await openSession(deps, user, resolved, input.userQuestion, model.chatModel, startedAt);
  try {
    const hit = await cachedAnswer(deps, session.cacheKey);
    if (hit !== undefined) return cachedReply(session, hit);
    return await modelReply(session, model);
  } catch (error) {
    await closeUnanswered(session);
    throw error;
  }
}
