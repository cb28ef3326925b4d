/**
 * Where a route's throttle hit is counted (spec Limits: every throttled route has its own scope): exactly one place
 * per route, decided here alone from the manifest (`infra/routes.ts`: the scope and what it counts by) and the route's
 * definition (`throttleInTransaction`):
 *
 * - `transaction`: the route's use case counts the hit inside its own transaction (`transactCounting`, issue 15); the
 *   `throttle` middleware hands it the ticket and counts only a request whose transaction never took it;
 * - `user item`: a learner's route throttled per learner: `authenticate` counts the hit on the user item as it loads
 *   it (core throttle/onItem.ts), one DynamoDB request for both;
 * - `middleware`: the `throttle` middleware counts the hit before the handler;
 * - `nowhere`: the route has no throttle scope.
 *
 * Failed staff sign-ins are not a route's throttle: the admin domain limits them by outcome (admin/signInGuard.ts).
 */
import { type ThrottleScope, throttleScopes } from '../../../../infra/routes/throttleScopes';
import type { RouteSpec } from '../../../../infra/routes/types';
import type { RouteDef } from './route';

export type ThrottlePlan = { at: 'nowhere' } | { at: 'transaction' | 'user item' | 'middleware'; scope: ThrottleScope };

/**
 * The plan of the route `spec` defined by `def`. Errors: a plain Error (when the group is built) for a route flagged
 * `throttleInTransaction` without a throttle scope: its use case would count nothing.
 */
export function throttlePlan(
  spec: Pick<RouteSpec, 'auth' | 'throttle' | 'method' | 'path'>,
  def: Pick<RouteDef, 'throttleInTransaction'>,
): ThrottlePlan {
  const scope = spec.throttle;
  if (!scope) {
    if (def.throttleInTransaction)
      throw new Error(`${spec.method} ${spec.path} counts its throttle hit in its transaction but has no throttle scope`);
    return { at: 'nowhere' };
  }
  if (def.throttleInTransaction) return { at: 'transaction', scope };
  if (spec.auth === 'user' && throttleScopes[scope].by === 'user') return { at: 'user item', scope };
  return { at: 'middleware', scope };
}
