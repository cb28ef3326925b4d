/**
 * Endpoint group `marketplace`: in-app purchases through the marketplace and its connection (spec Endpoints,
 * Authentication 8 and 9; DESIGN §8; docs/marketplace.md):
 *
 * - `POST /api/payment/marketplace/orders/{id}/start` (the order's owner): `{ orderId, marketplaceSku, productType,
 *   packageName, developerPayload, amount, dynamicPriceToken? }`.
 * - `POST /api/payment/marketplace/verify` `{ orderId, purchaseToken, purchaseData?, dataSignature? }` (the order's
 *   owner): 200 with the subscription status (the shape of `GET /api/subscription/status`) and `orderId`, `orderStatus`.
 * - `GET /api/payment/marketplace/verify?code=&state=` (no login): the one-time OAuth exchange inside an open
 *   window, else 403 `authorization_window_closed`.
 * - `GET /api/admin/marketplace` (`view_marketplacecredential`): `{ mode, connected, window: { open, expiresAt,
 *   authorizeUrl } }`; `POST /api/admin/marketplace/authorize-window` `{ hours? }` (`change_marketplacecredential`):
 *   `{ authorizeUrl, expiresAt }`. Times are ISO 8601.
 */
import { lazySchema } from '@mathisland/core';
import { completeAuthorization, connectionStatus, openAuthorizeWindow } from '@mathisland/core/marketplace';
import { startMarketplacePurchase, verifyMarketplacePurchase } from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { marketplaceRoutes } from '../../../../infra/routes/marketplace';
import { defineGroup } from '../lib/group';
import { isoTime } from '../lib/http';
import { json } from '../lib/responses';
import { type AdminInput, type RouteInput, route, type UserInput } from '../lib/route';
import { Id, IsoTime, OrderStatus, responseShape, SubscriptionStatus, subscriptionAnswer, Toman } from '../lib/shapes';

const Verify = lazySchema(() =>
  z.strictObject({
    orderId: z.number().int().positive(),
    // Marketplace purchase tokens are opaque printable strings; anything else is not one.
    purchaseToken: z
      .string()
      .min(1)
      .max(512)
      .regex(/^[\x21-\x7e]+$/, 'a purchase token is printable ASCII without spaces'),
    purchaseData: z.string().min(2).max(8192).optional().meta({
      description:
        'Poolakey’s `originalJson`: the purchase JSON the marketplace signed, exactly as received. Required for a subscription when the service has MARKETPLACE_PUBLIC_KEY',
    }),
    dataSignature: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .meta({ description: 'Poolakey’s `dataSignature`: base64 RSA-SHA1 signature of `purchaseData`. Required with it' }),
  }),
);
const queryValue = z.string().max(2000).optional();
const AuthorizeQuery = lazySchema(() =>
  z.object({ code: queryValue, state: queryValue, error: queryValue, error_description: queryValue }),
);
const Window = lazySchema(() => z.strictObject({ hours: z.number().int().min(1).max(720).optional() }).optional());

const Started = responseShape(() =>
  z.object({
    orderId: Id,
    marketplaceSku: z.string(),
    productType: z.enum(['subscription', 'inapp']),
    packageName: z.string(),
    developerPayload: z.string().meta({ description: 'Pass to the marketplace purchase; binds it to this order' }),
    amount: Toman,
    dynamicPriceToken: z
      .string()
      .optional()
      .meta({ description: 'When a discount lowered the price: HS256 JWT (price in rial, package_name, sku, exp = now + 600 s, nonce)' }),
  }),
);
const Verified = responseShape(() => SubscriptionStatus.unwrap().extend({ orderId: Id, orderStatus: OrderStatus }));
const Connection = responseShape(() =>
  z.object({
    mode: z.enum(['static_secret', 'oauth', 'none']),
    connected: z.boolean(),
    window: z.object({ open: z.boolean(), expiresAt: IsoTime.nullable(), authorizeUrl: z.string().nullable() }),
  }),
);
const notYours = { not_found: 'No such order of the caller’s.' };
const marketplaceDown = {
  marketplace_unavailable: 'The marketplace answered 401, 403 or 5xx, or timed out; `Retry-After: 60`; the order is unchanged.',
};

const start = ({ deps, user, id }: UserInput<undefined, unknown>) => startMarketplacePurchase(deps, user, id);

async function verify({ deps, user, body }: UserInput<z.infer<typeof Verify>, unknown>) {
  const { order, subscription } = await verifyMarketplacePurchase(deps, user, body.orderId, body.purchaseToken, {
    purchaseData: body.purchaseData,
    dataSignature: body.dataSignature,
  });
  return { orderId: order.id, orderStatus: order.status, ...subscriptionAnswer(subscription) };
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

export const { handler, createHandler, routes } = defineGroup(marketplaceRoutes, {
  'POST /api/payment/marketplace/orders/{id}/start': route.user({
    description: 'Audit row `marketplace_start`. Sell `marketplaceSku` with `developerPayload` in the marketplace app next.',
    responses: {
      200: json(Started, 'What the app passes to the marketplace', {
        examples: {
          marketplace: {
            summary: 'Marketplace purchase, step 2',
            value: {
              orderId: 42,
              marketplaceSku: 'mathisland_sub_1m',
              productType: 'subscription',
              packageName: 'ir.mathisland.app',
              developerPayload: 'o42.k3Jd9…',
              amount: 290000,
            },
          },
        },
      }),
    },
    errors: {
      validation_error: 'Not a marketplace order.',
      'discount_not_allowed/marketplace': 'Discounted, and the dynamic-price key is gone.',
      ...notYours,
      already_paid: 'The order is paid.',
      order_status_conflict: 'The order is not pending.',
    },
    run: start,
  }),
  'POST /api/payment/marketplace/verify': route.user({
    body: Verify,
    bodyExamples: {
      marketplace: {
        summary: 'Marketplace purchase, step 3',
        value: {
          orderId: 42,
          purchaseToken: 'kX9d…',
          purchaseData:
            '{"orderId":"…","purchaseToken":"kX9d…","developerPayload":"o42.k3Jd9…","packageName":"ir.mathisland.app","productId":"mathisland_sub_1m","purchaseTime":1763625600000,"purchaseState":0,"autoRenewing":true}',
          dataSignature: 'Zm9v…',
        },
      },
    },
    description:
      'The product type comes from the order’s plan. With MARKETPLACE_PUBLIC_KEY set, a subscription needs the signed purchase data, checked before the marketplace is asked. A subscription is granted until the marketplace’s `validUntil`. The token is stored only as a SHA-256 digest.',
    responses: { 200: json(Verified, 'Paid: the subscription status with the order') },
    errors: {
      purchase_invalid:
        'The marketplace does not know the purchase (order `failed`), it was refunded, made for another order, an ended subscription, the signed purchase data is missing, forged or another order’s, or there is no credential (order left pending).',
      validation_error: 'Not a marketplace order, or a bad body.',
      ...notYours,
      already_paid: 'The order is paid.',
      purchase_token_used: 'The token paid another order.',
      order_status_conflict: 'The order was refunded or cancelled.',
      ...marketplaceDown,
    },
    run: verify,
  }),
  'GET /api/payment/marketplace/verify': route.public({
    query: AuthorizeQuery,
    description: 'Where the marketplace sends its account owner back: stores the refresh token and closes the window.',
    responses: {
      200: responseShape(() =>
        z.object({
          mode: z.enum(['oauth', 'static_secret']).meta({
            description:
              'The credential mode in force: `static_secret` while the static secret is set (it takes precedence; the refresh token stored now serves once it is removed)',
          }),
          connected: z.literal(true),
        }),
      ),
    },
    errors: {
      authorization_invalid: 'No code, the owner denied, another state, or the code was refused.',
      authorization_window_closed: 'No authorization window is open (staff open one).',
      ...marketplaceDown,
    },
    run: authorize,
  }),
  'GET /api/admin/marketplace': route.admin({ permission: 'view_marketplacecredential', responses: { 200: Connection }, run: connection }),
  'POST /api/admin/marketplace/authorize-window': route.admin({
    permission: 'change_marketplacecredential',
    body: Window,
    description: '72 hours unless `hours` says otherwise. Also `npm run marketplace:authorize`.',
    responses: { 200: responseShape(() => z.object({ authorizeUrl: z.string(), expiresAt: IsoTime })) },
    errors: { marketplace_oauth_not_configured: 'No OAuth client is configured (MARKETPLACE_CLIENT_ID).' },
    run: openWindow,
  }),
});
