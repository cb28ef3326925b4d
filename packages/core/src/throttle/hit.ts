/**
 * Per-scope rate limits stored in DynamoDB (spec Limits: "every throttled route has its own scope"), so
 * every Lambda instance shares one count. A fixed window of `rule.windowSeconds`: one unconditional update
 * per request on the item of (scope, subject, window start); the item expires through TTL a minute after its
 * window. Routes that write count inside their own transaction instead (ticket.ts).
 */

import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { throttleErrors } from './errors';
import type { ThrottleRule } from './rule';
import { countHit, windowOf } from './window.entity';

/**
 * Counts one request of `subject` in `scope` under `rule` (values of `infra/routes.ts` throttleScopes).
 * Errors: `throttled` with `retryAfter` = seconds until the window ends (at least 1) once the count is above
 * `rule.limit`.
 */
export async function hit(deps: Deps, scope: string, subject: string, rule: ThrottleRule): Promise<void> {
  const nowSeconds = epochSeconds(deps.clock.now());
  const window = windowOf(nowSeconds, rule.windowSeconds);
  const count = await countHit(deps.db, scope, subject, window.start, window.expiresAt);
  if (count > rule.limit) throw throttleErrors.windowFull(scope, window.end, nowSeconds);
}
