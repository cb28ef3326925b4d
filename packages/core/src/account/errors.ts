/** Error codes of account self-deletion (DESIGN §3; the HTTP status is chosen at the edge). */
import { DomainError } from '../errors';

export const accountErrors = {
  /** 403: fixed-code test logins are shared demo accounts (spec: "Demo accounts are refused"). */
  demoAccount: () => new DomainError('permission_denied', 'Demo accounts (fixed-code test logins) cannot be deleted'),
  /** 401: the session ended while deleting (e.g. deleted twice at once). */
  sessionEnded: () => new DomainError('token_invalid', 'The session has ended; sign in again'),
};
