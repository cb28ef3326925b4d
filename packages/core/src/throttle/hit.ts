/**
 * Per-scope rate limits stored in DynamoDB (spec Limits: "every throttled route has its own scope"), so
 * every Lambda instance shares one count. A fixed window of `rule.windowSeconds`: one unconditional update
 * per request on the item of (scope, subject, window start); the item expires through TTL a minute after its
 * window.
 */
import type { ThrottleRule } from '../../../../infra/routes';
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { throttleErrors } from './errors';
import { countHit } from './window.entity';

/** Seconds an expired window's item is kept past its end before TTL may delete it. */
const TTL_GRACE_SECONDS = 60;

/**
 * Counts one request of `subject` in `scope` under `rule` (values of `infra/routes.ts` throttleScopes).
 * Errors: `throttled` with `retryAfter` = seconds until the window ends (at least 1) once the count is above
 * `rule.limit`.
 */
export async function hit(deps: Deps, scope: string, subject: string, rule: ThrottleRule): Promise<void> {
  const nowSeconds = epochSeconds(deps.clock.now());
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  const count = await countHit(deps.db, scope, subject, windowStart, windowEnd + TTL_GRACE_SECONDS);
  if (count > rule.limit) throw throttleErrors.throttled(scope, Math.max(1, windowEnd - nowSeconds));
}
