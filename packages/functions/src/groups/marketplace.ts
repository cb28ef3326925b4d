/**
 * Endpoint group `marketplace`: in-app purchases through the marketplace and its connection (spec Endpoints,
 * Authentication 8 and 9; DESIGN §8; docs/marketplace.md):
 *
 * - `POST /api/payment/marketplace/orders/{id}/start` (the order's owner): `{ orderId, marketplaceSku, productType,
 *   packageName, developerPayload, amount, dynamicPriceToken? }`.
 * - `POST /api/payment/marketplace/verify` `{ orderId, purchaseToken }` (the order's owner): 200 with the subscription
 *   status (the shape of `GET /api/subscription/status`) and `orderId`, `orderStatus`.
 * - `GET /api/payment/marketplace/verify?code=&state=` (no login): the one-time OAuth exchange inside an open
 *   window, else 403 `authorization_window_closed`.
 * - `GET /api/admin/marketplace` (`view_marketplacecredential`): `{ mode, connected, window: { open, expiresAt,
 *   authorizeUrl } }`; `POST /api/admin/marketplace/authorize-window` `{ hours? }` (`change_marketplacecredential`):
 *   `{ authorizeUrl, expiresAt }`. Times are ISO 8601.
 */
import { completeAuthorization, connectionStatus, openAuthorizeWindow } from '@mathisland/core/marketplace';
import { startMarketplacePurchase, verifyMarketplacePurchase } from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { isoTime } from '../lib/http';
import { type AdminInput, type RouteInput, route, type UserInput } from '../lib/route';

const Verify = z.strictObject({
  orderId: z.number().int().positive(),
  // Marketplace purchase tokens are opaque printable strings; anything else is not one.
  purchaseToken: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[\x21-\x7e]+$/, 'a purchase token is printable ASCII without spaces'),
});
const queryValue = z.string().max(2000).optional();
const AuthorizeQuery = z.object({ code: queryValue, state: queryValue, error: queryValue, error_description: queryValue });
const Window = z.strictObject({ hours: z.number().int().min(1).max(720).optional() }).optional();

const start = ({ deps, user, id }: UserInput<undefined, unknown>) => startMarketplacePurchase(deps, user, id);

async function verify({ deps, user, body }: UserInput<z.infer<typeof Verify>, unknown>) {
  const { order, subscription } = await verifyMarketplacePurchase(deps, user, body.orderId, body.purchaseToken);
  return { orderId: order.id, orderStatus: order.status, ...subscription, expiresAt: isoTime(subscription.expiresAt) };
}

const authorize = ({ deps, query }: RouteInput<undefined, z.infer<typeof AuthorizeQuery>>) =>
  completeAuthorization(deps, { code: query.code, state: query.state, error: query.error });

async function connection({ deps }: AdminInput<undefined, unknown>) {
  const status = await connectionStatus(deps);
  return { ...status, window: { ...status.window, expiresAt: isoTime(status.window.expiresAt) } };
}

async function openWindow({ deps, staff, body }: AdminInput<z.infer<typeof Window>, unknown>) {
  const window = await openAuthorizeWindow(deps, { hours: body?.hours, actor: staff.username });
  return { authorizeUrl: window.authorizeUrl, expiresAt: isoTime(window.expiresAt) };
}

export const { handler, createHandler, routes } = defineGroup('marketplace', {
  'POST /api/payment/marketplace/orders/{id}/start': route.user({ run: start }),
  'POST /api/payment/marketplace/verify': route.user({ body: Verify, run: verify }),
  'GET /api/payment/marketplace/verify': route.public({ query: AuthorizeQuery, run: authorize }),
  'GET /api/admin/marketplace': route.admin({ permission: 'view_marketplacecredential', run: connection }),
  'POST /api/admin/marketplace/authorize-window': route.admin({
    permission: 'change_marketplacecredential',
    body: Window,
    run: openWindow,
  }),
});
