/**
 * The route's throttle scope (spec Limits: "every throttled route has its own scope"; values in
 * `infra/routes.ts` throttleScopes): counts the signed-in learner or staff member for `by: 'user'` scopes
 * (the viewer's address when there is none), the viewer's address for `by: 'ip'` (`context.viewer`, from
 * CloudFront-Viewer-Address, an IPv6 address by its /64: originCheck). Over the limit: 429 `throttled` with
 * `Retry-After`. Must run after `authenticate`. (Failed staff sign-ins are limited by the admin domain, which alone
 * knows the outcome: packages/core/src/admin/signInGuard.ts.)
 *
 * A route whose definition says `throttleInTransaction` is counted inside its own transaction (issue 15): this
 * middleware only puts a ticket on the context (`context.throttleTicket`, handed to the domain as
 * `deps.throttle`), and the domain's `transactCounting` counts it, or refuses the whole change with 429 when
 * the window is full. When no transaction took the ticket (an error before any write, a replay), the request is
 * counted here afterwards, as every request is, and answers 429 when that hit finds the window full.
 *
 * A read route scoped per learner does not use this middleware: `authenticate` counts its hit on the user item as
 * it loads it (`countOnUser`; core throttle/onItem.ts), one DynamoDB request instead of two.
 *
 * BENCH_THROTTLE_LIMIT (settings: never in production, never set by the stacks) replaces every scope's limit,
 * for `npm run bench`'s load runs from one address.
 */
import { hit, throttleTicket } from '@mathisland/core/throttle';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type ScopeRule, type ThrottleScope, throttleScopes } from '../../../../../infra/routes/throttleScopes';
import type { AppContext } from '../types';
import { UNKNOWN_VIEWER } from '../viewer';
import { depsOf } from './injectDeps';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>;

function subjectOf({ context }: Request, rule: ScopeRule): string {
  if (rule.by === 'user' && context.user) return `user:${context.user.id}`;
  if (rule.by === 'user' && context.staff) return `staff:${context.staff.username}`;
  return (context.viewer ?? UNKNOWN_VIEWER).throttleKey;
}

/** The rule of `scope` for this request: the manifest's, or every limit replaced by BENCH_THROTTLE_LIMIT (bench only). */
export function effectiveRule(context: AppContext, scope: ThrottleScope): ScopeRule {
  const override = depsOf(context).settings.benchThrottleLimit;
  const rule = throttleScopes[scope];
  return override === undefined ? rule : { ...rule, limit: override };
}

export const throttle = (options: {
  scope: ThrottleScope;
  /** The route counts the hit in its own transaction (route definition `throttleInTransaction`). */
  inTransaction?: boolean;
}): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => {
  const ruleOf = (request: Request): ScopeRule => effectiveRule(request.context, options.scope);
  /** Counts a request whose transaction did not take its ticket. Errors: `throttled`. */
  const countUncounted = async (request: Request) => {
    const ticket = request.context.throttleTicket;
    if (ticket && !ticket.counted) {
      ticket.counted = true;
      await hit(depsOf(request.context), options.scope, ticket.subject, ticket.rule);
    }
  };
  return {
    before: async (request) => {
      const rule = ruleOf(request);
      const subject = subjectOf(request, rule);
      if (options.inTransaction) request.context.throttleTicket = throttleTicket(options.scope, subject, rule);
      else await hit(depsOf(request.context), options.scope, subject, rule);
    },
    ...(options.inTransaction
      ? {
          after: countUncounted,
          onError: async (request: Request) => {
            if ((request.error as { code?: string } | null)?.code === 'throttled') return;
            await countUncounted(request);
          },
        }
      : {}),
  };
};
