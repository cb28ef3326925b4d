/** Error codes of sign-in and sessions (DESIGN §3). */
import { DomainError } from '../errors';

export const authErrors = {
  notAuthenticated: () => new DomainError('not_authenticated', 'Sign in first: send Authorization: Bearer <accessToken>'),
  tokenInvalid: (detail = 'The token is invalid') => new DomainError('token_invalid', detail),
  otpInvalid: (detail = 'The code is wrong or has expired') => new DomainError('otp_invalid', detail),
  resendTooSoon: (retryAfter: number) =>
    new DomainError('throttled', 'A code was sent a moment ago; wait before asking for another', { retryAfter }),
};
