/** Error codes of notifications (DESIGN §3; the HTTP status is chosen at the edge). */
import { commonErrors } from '../errors';

export const notificationErrors = {
  /** 404: no such notification of this learner. */
  notFound: () => commonErrors.notFound('Notification'),
};
