/** Error codes of the rate limits. */
import { DomainError } from '../errors';

export const throttleErrors = {
  /** `throttled` (429 with Retry-After): the scope's window is full for this subject until `retryAfter` seconds pass. */
  throttled: (scope: string, retryAfter: number) =>
    new DomainError('throttled', `Too many requests (${scope}); try again later`, { retryAfter }),
};
