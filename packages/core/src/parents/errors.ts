/** Error codes of the parent's weekly report (DESIGN §13; the HTTP status is chosen at the edge). */
import { DomainError } from '../errors';

export const parentErrors = {
  /** 409: nothing to confirm. */
  notPending: () =>
    new DomainError('parent_not_pending', "No parent's number waits for its code: send it first with POST /api/user/parent { phone }"),
  /** 503: the sms provider's key or the report template is not configured (the feature is off). */
  reportsOff: () =>
    new DomainError('sms_unavailable', 'Parent reports are off: the sms provider or its report template is not configured', {
      retryAfter: 300,
    }),
  /** 404: a stop link that is not one, or whose reports are no longer sent to that number. */
  stopLinkInvalid: () =>
    new DomainError('not_found', 'This stop link is not valid, or the reports it stops are no longer sent to this number'),
};
