/** Error codes of sign-in and sessions (DESIGN §3). */
import { DomainError } from '../errors';
import { countEvent, extraThrottleScopes } from '../metrics';

export const authErrors = {
  notAuthenticated: () => new DomainError('not_authenticated', 'Sign in first: send Authorization: Bearer <accessToken>'),
  tokenInvalid: (detail = 'The token is invalid') => new DomainError('token_invalid', detail),
  otpInvalid: (detail = 'The code is wrong or has expired') => new DomainError('otp_invalid', detail),
  /** 429: a new code within the resend cooldown (counted as `Throttled`, scope `otp_resend`). */
  resendTooSoon: (retryAfter: number) => {
    countEvent('Throttled', { scope: extraThrottleScopes.otpResend });
    return new DomainError('throttled', 'A code was sent a moment ago; wait before asking for another', { retryAfter });
  },
};
