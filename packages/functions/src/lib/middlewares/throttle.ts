/**
 * The route's throttle scope (spec Limits: "every throttled route has its own scope"; values in
 * `infra/routes.ts` throttleScopes): counts the signed-in learner or staff member for `by: 'user'` scopes
 * (the client IP when there is none), the client IP for `by: 'ip'`, and for `by: 'username'` the `username`
 * of the JSON body as the admin login normalizes it (the IP when the body has none), counted before the
 * password is checked. Over the limit: 429 `throttled` with `Retry-After`. Must run after `authenticate` (and
 * `jsonBody`).
 */
import { normalizeUsername } from '@mathisland/core/admin';
import { hit } from '@mathisland/core/throttle';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type ThrottleScope, throttleScopes } from '../../../../../infra/routes';
import type { AppContext } from '../types';
import { depsOf } from './injectDeps';

export const throttle = (options: {
  scope: ThrottleScope;
}): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => {
  const rule = throttleScopes[options.scope];
  return {
    before: async ({ event, context }) => {
      const ip = `ip:${event.requestContext?.http?.sourceIp ?? 'unknown'}`;
      const body = event.body as unknown;
      const username =
        rule.by === 'username' && typeof body === 'object' && body !== null && 'username' in body && typeof body.username === 'string'
          ? normalizeUsername(body.username).slice(0, 64)
          : undefined;
      const subject = username
        ? `username:${username}`
        : rule.by === 'user' && context.user
          ? `user:${context.user.id}`
          : rule.by === 'user' && context.staff
            ? `staff:${context.staff.username}`
            : ip;
      await hit(depsOf(context), options.scope, subject, rule);
    },
  };
};
