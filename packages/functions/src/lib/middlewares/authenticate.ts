/**
 * Who is calling, by the route's auth kind (`infra/routes.ts` AuthKind; spec Authentication):
 * - `none`: nobody needs to be;
 * - `user`: `Authorization: Bearer <accessToken>` of a live session → `context.user` (401 otherwise); with
 *   `countOnUser`, the route's per-learner throttle scope is counted by the same request that loads the user
 *   (429 `throttled` when its window is full; core auth `authenticate`), instead of by the `throttle` middleware;
 * - `internal`: `X-Internal-Key` equal to INTERNAL_SERVICE_KEY, never in debug mode (403 otherwise);
 * - `admin`: the admin session cookie → `context.staff` (401), holding `permission` when one is given (403).
 */
import { DomainError } from '@mathisland/core';
import { ADMIN_COOKIE, authenticateStaff, type Permission, requirePermission } from '@mathisland/core/admin';
import { authenticate as authenticateUser } from '@mathisland/core/auth';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AuthKind, ThrottleScope } from '../../../../../infra/routes';
import { cookie, header, presentsInternalKey } from '../http';
import type { AppContext } from '../types';
import { depsOf } from './injectDeps';
import { effectiveRule } from './throttle';

export const authenticate = (options: {
  kind: AuthKind;
  permission?: Permission;
  /** A `by: 'user'` throttle scope to count on the user item (auth kind `user` only). */
  countOnUser?: ThrottleScope;
}): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => ({
  before: async ({ event, context }) => {
    const deps = depsOf(context);
    switch (options.kind) {
      case 'none':
        return;
      case 'user':
        context.user = await authenticateUser(
          deps,
          header(event, 'authorization'),
          options.countOnUser ? { scope: options.countOnUser, rule: effectiveRule(context, options.countOnUser) } : undefined,
        );
        return;
      case 'internal':
        if (deps.settings.debug || !presentsInternalKey(deps, event)) {
          throw new DomainError('permission_denied', 'This route needs a valid X-Internal-Key');
        }
        return;
      case 'admin':
        context.staff = await authenticateStaff(deps, cookie(event, ADMIN_COOKIE));
        if (options.permission) requirePermission(context.staff, options.permission);
        return;
    }
  },
});
