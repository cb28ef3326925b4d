/**
 * Error codes of the tutor (DESIGN §3; status chosen at the edge, packages/functions/src/lib/errors.ts):
 * - `assistant_busy` (503, Retry-After): this worker's concurrency slots are full (spec Errors).
 * - `ai_quota_exceeded` (429, Retry-After = seconds to the next Tehran midnight): the daily quota is used.
 * - `assistant_unavailable` (503, Retry-After): the tutor is off (OPENAI_API_KEY empty), or the model / the
 *   embeddings API failed before the first byte of an answer (the quota is given back).
 * - `not_found` (404): lessonId, questionId, a grade, a document or a message that does not exist (or, for a
 *   message, is not the caller's).
 * - `validation_error` (400): lessonId and questionId that disagree, feedback on a learner's own question.
 */
import { DomainError } from '../errors';

/** Seconds a client should wait after `assistant_busy`: answers usually take a few seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
/** Seconds a client should wait after `assistant_unavailable`. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 60;

export const tutorErrors = {
  busy: () =>
    new DomainError('assistant_busy', 'The tutor is answering many questions right now; try again in a few seconds', {
      retryAfter: BUSY_RETRY_AFTER_SECONDS,
    }),
  quotaExceeded: (limit: number, retryAfter: number) =>
    new DomainError('ai_quota_exceeded', `You have asked the tutor ${limit} questions today; come back tomorrow`, { retryAfter }),
  off: () =>
    new DomainError('assistant_unavailable', 'The tutor is not available on this server', {
      retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
    }),
  modelFailed: () =>
    new DomainError('assistant_unavailable', 'The tutor could not answer right now; your question was not counted', {
      retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
    }),
};
