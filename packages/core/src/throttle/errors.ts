/** Error codes of the rate limits. */
import { DomainError } from '../errors';
import { countEvent } from '../metrics';

export const throttleErrors = {
  /**
   * `throttled` (429 with Retry-After): the scope's window is full for this subject until `retryAfter` seconds pass.
   * Each refusal is counted (metric `Throttled` by `scope`, infra/metrics.ts).
   */
  throttled: (scope: string, retryAfter: number) => {
    countEvent('Throttled', { scope });
    return new DomainError('throttled', `Too many requests (${scope}); try again later`, { retryAfter });
  },
  /** `throttled` for a full window ending at `windowEnd` (epoch seconds): retry when it ends, at least 1 s from `nowSeconds`. */
  windowFull: (scope: string, windowEnd: number, nowSeconds: number) =>
    throttleErrors.throttled(scope, Math.max(1, windowEnd - nowSeconds)),
};
