/** Error codes of support tickets. */
import { commonErrors, DomainError } from '../errors';

export const supportErrors = {
  /** `validation_error`: `field` (subject or text) is only whitespace. */
  blank: (field: 'subject' | 'text') =>
    new DomainError('validation_error', `${field} must not be blank`, { fields: { [field]: ['must not be blank'] } }),
  /** `validation_error`: the ticket already holds `max` messages. */
  ticketFull: (ticketId: number, max: number) =>
    new DomainError('validation_error', `A ticket holds at most ${max} messages; open a new one`, {
      fields: { text: [`ticket ${ticketId} is full`] },
    }),
  /**
   * `idempotency_conflict` (409): the Idempotency-Key was used for another request (the other ticket route, a
   * message to another ticket, or another body).
   */
  idempotencyConflict: () =>
    new DomainError(
      'idempotency_conflict',
      'This Idempotency-Key was already used for a different ticket request (another route, ticket or body); use a new key',
    ),
  /** `not_found`: no such ticket, or another learner's. */
  notFound: () => commonErrors.notFound('Ticket'),
};
