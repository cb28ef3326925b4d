/** Error codes of the learning loop (spec "Node (island)" table and Errors). */
import { DomainError } from '../errors';

export const progressErrors = {
  nodeLocked: () => new DomainError('node_locked', 'This island is locked: finish the one before it first'),
  noHearts: () => new DomainError('no_hearts', 'No hearts left; wait for one to come back'),
  answersMissing: (missing: number[]) =>
    new DomainError('answers_missing', `Answer every question first (${missing.length} unanswered)`, {
      fields: { questionIds: missing.map(String) },
    }),
  invalidAnswer: (detail: string) => new DomainError('validation_error', detail, { fields: { answer: [detail] } }),
  busy: () => new DomainError('database_busy', 'Too many changes at once; try again', { retryAfter: 1 }),
  attemptConflict: () => new DomainError('idempotency_conflict', 'This attemptId was already used for another question'),
  notInReview: () => new DomainError('not_found', 'This question is not in your mistakes review'),
};
