/**
 * Endpoint group `payment`: the browser's way through the web gateway, no login (spec Endpoints):
 * - `GET /api/payment/orders/{id}/pay?sig=…`: 302 to the gateway's start page (authority requested on the first
 *   visit), or, for a finished order, 302 to `{FRONTEND_URL}/?orderId=<id>&status=<status>`.
 * - `GET /api/payment/gateway/callback?Authority=…&Status=OK|NOK`: verifies server to server, then 302 to
 *   `{GATEWAY_REDIRECT}/?orderId=<id>&status=paid|failed` (GATEWAY_REDIRECT defaults to FRONTEND_URL), or JSON
 *   `{ orderId, status }` when GATEWAY_REDIRECT is `-`. 400 without an authority.
 */
import { DomainError, lazySchema } from '@mathisland/core';
import { handleCallback, startPayment } from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { paymentRoutes } from '../../../../infra/routes/payment';
import { defineGroup } from '../lib/group';
import { redirect } from '../lib/http';
import { found, json } from '../lib/responses';
import { type RouteInput, route } from '../lib/route';
import { Id, OrderStatus, responseShape } from '../lib/shapes';

/** `{base}/?orderId=<id>&status=<status>` (spec: `{frontend_url}/?orderId=<id>&status=paid`). */
export function resultUrl(base: string, orderId: number, status: string): string {
  return `${base.replace(/\/+$/, '')}/?${new URLSearchParams({ orderId: String(orderId), status })}`;
}

const queryValue = z.string().max(200).optional();
const PayQuery = lazySchema(() => z.object({ sig: queryValue }));
// ZarinPal sends `Authority` and `Status`; lower case is accepted too.
const CallbackQuery = lazySchema(() => z.object({ Authority: queryValue, authority: queryValue, Status: queryValue, status: queryValue }));

const Url = z.string().meta({ description: 'An absolute URL' });

async function pay({ deps, id, query }: RouteInput<undefined, z.infer<typeof PayQuery>>) {
  const link = await startPayment(deps, id, query.sig);
  return redirect(link.kind === 'gateway' ? link.url : resultUrl(deps.settings.frontendUrl, link.orderId, link.status));
}

async function callback({ deps, query }: RouteInput<undefined, z.infer<typeof CallbackQuery>>) {
  const authority = query.Authority ?? query.authority;
  if (!authority) {
    throw new DomainError('validation_error', 'The gateway callback carries no authority', { fields: { Authority: ['required'] } });
  }
  const result = await handleCallback(deps, authority, query.Status ?? query.status);
  const target = deps.settings.gateway.redirect;
  return target === '-' ? result : redirect(resultUrl(target, result.orderId, result.status));
}

export const { handler, createHandler, routes } = defineGroup(paymentRoutes, {
  'GET /api/payment/orders/{id}/pay': route.public({
    query: PayQuery,
    description: 'Open the purchase’s `paymentUrl` as given (it carries `sig`). The gateway authority is requested on the first visit.',
    responses: {
      302: found('To the gateway’s StartPay page; for a finished order to `{FRONTEND_URL}/?orderId=<id>&status=<status>`', Url),
    },
    errors: {
      not_found: 'No such order, or a wrong `sig`.',
      gateway_unavailable: 'The gateway is unset or unreachable (its -14 answer: register the API domain in its panel).',
    },
    run: pay,
  }),
  'GET /api/payment/gateway/callback': route.public({
    query: CallbackQuery,
    description: 'Where the gateway sends the browser back (`Authority`, `Status=OK|NOK`): verified server to server.',
    responses: {
      302: found('To `{GATEWAY_REDIRECT}/?orderId=<id>&status=paid|failed` (or the order’s status when it was refunded or cancelled)', Url),
      200: json(
        responseShape(() => z.object({ orderId: Id, status: OrderStatus })),
        'The result, when GATEWAY_REDIRECT is `-`',
      ),
    },
    errors: {
      validation_error: 'No `Authority`.',
      not_found: 'The authority names no order (recorded).',
      gateway_unavailable: 'The gateway could not verify; the order stays as it was.',
    },
    run: callback,
  }),
});
