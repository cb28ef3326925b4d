/**
 * `POST /api/payment/marketplace/orders/{id}/start` (spec Endpoints; DESIGN §8): what the app needs to buy a
 * marketplace order's product with Poolakey (`PurchaseRequest(productId, payload, dynamicPriceToken)`,
 * providers.md §2):
 *
 * - `marketplaceSku` and `productType`: the plan's, snapshotted on the order at purchase (never from the app);
 * - `developerPayload`: binds the purchase to this order: `o<orderId>.<HMAC-SHA256 under SECRET_KEY, 16 base64url>`.
 *   The marketplace echoes it on validation and verification requires it to match (marketplaceVerify.ts);
 * - `dynamicPriceToken`, when a discount lowered the price: an HS256 JWT under MARKETPLACE_DYNAMIC_PRICE_KEY with
 *   header `{ typ: 'JWT', alg: 'HS256' }` and the claims providers.md §2 lists: `price` (what is left to pay, in
 *   RIAL), `package_name`, `sku`, `exp` (now + {@link DYNAMIC_PRICE_TOKEN_SECONDS}) and a random hex `nonce`.
 *
 * The first start of a pending order marks it started (`marketplaceStartedAt`, with the payload), after which no
 * discount code can be applied (spec Errors: "refused unless … the order is not yet started"). Every start writes a
 * `marketplace_start` audit row. A start again returns the same payload and a fresh token.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { User } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { paymentErrors } from './errors';
import { type Order, orderKey } from './order.entity';
import { getOwnOrder } from './orders';
import { eventItem } from './paymentEvent.entity';
import type { MarketplaceProductType } from './plan.entity';

/** Lifetime of a dynamic-price token, seconds. */
export const DYNAMIC_PRICE_TOKEN_SECONDS = 600;
const RIAL_PER_TOMAN = 10;

export interface MarketplaceStart {
  orderId: number;
  marketplaceSku: string;
  productType: MarketplaceProductType;
  /** MARKETPLACE_PACKAGE_NAME, for the app's check that it talks to the right store listing. */
  packageName: string | null;
  developerPayload: string;
  /** What the buyer pays, toman. */
  amount: number;
  dynamicPriceToken?: string;
}

/** The developer payload of order `orderId` (see the module doc). */
export const developerPayloadOf = (deps: Pick<Deps, 'secretKey'>, orderId: number): string =>
  `o${orderId}.${createHmac('sha256', deps.secretKey).update(`marketplace-payload:${orderId}`).digest('base64url').slice(0, 16)}`;

/** The signed dynamic price of `order` (see the module doc). */
async function dynamicPriceToken(deps: Deps, order: Order, key: string): Promise<string> {
  const now = Math.floor(deps.clock.now() / 1000);
  return new SignJWT({
    price: order.amount * RIAL_PER_TOMAN,
    package_name: deps.marketplace.packageName ?? '',
    sku: order.marketplaceSku,
    nonce: randomBytes(16).toString('hex'),
  })
    .setProtectedHeader({ typ: 'JWT', alg: 'HS256' })
    .setExpirationTime(now + DYNAMIC_PRICE_TOKEN_SECONDS)
    .sign(new TextEncoder().encode(key));
}

/** Errors unless `order` can be started: `validation_error` (not a marketplace order), `already_paid`, `order_status_conflict`. */
function requireStartable(order: Order): asserts order is Order & { marketplaceSku: string } {
  if (order.provider !== 'marketplace' || !order.marketplaceSku) throw paymentErrors.notMarketplaceOrder();
  if (order.status === 'paid') throw paymentErrors.alreadyPaid();
  if (order.status !== 'pending') throw paymentErrors.orderStatusConflict(order.status, 'only a pending order can be bought');
}

/**
 * Starts `user`'s marketplace order `orderId` (see the module doc). Errors: `not_found` (not the caller's order),
 * `validation_error` (not a marketplace order), `already_paid`, `order_status_conflict`, `discount_not_allowed` (a
 * discounted order while MARKETPLACE_DYNAMIC_PRICE_KEY is no longer set: its price could not be signed).
 */
export async function startMarketplacePurchase(deps: Deps, user: User, orderId: number): Promise<MarketplaceStart> {
  let order = await getOwnOrder(deps, user.id, orderId);
  requireStartable(order);
  const key = deps.settings.marketplace.dynamicPriceKey;
  if (order.discount > 0 && !key) {
    throw paymentErrors.marketplaceDiscountRefused('This discounted order cannot be bought in the marketplace now (no dynamic-price key)');
  }
  const developerPayload = order.developerPayload ?? developerPayloadOf(deps, order.id);
  const now = deps.clock.now();
  const row = eventItem(deps.db, order.id, now, 'marketplace_start', { userId: user.id, sku: order.marketplaceSku, amount: order.amount });
  try {
    await transact(deps.db, [
      order.marketplaceStartedAt
        ? update(deps.db, orderKey(order.id), 'SET updatedAt = :now', {
            condition: '#s = :pending',
            names: { '#s': 'status' },
            values: { ':now': now, ':pending': 'pending' },
          })
        : update(deps.db, orderKey(order.id), 'SET marketplaceStartedAt = :now, developerPayload = :payload, updatedAt = :now', {
            condition: '#s = :pending AND attribute_not_exists(marketplaceStartedAt) AND amount = :amount',
            names: { '#s': 'status' },
            values: { ':now': now, ':payload': developerPayload, ':pending': 'pending', ':amount': order.amount },
          }),
      row,
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Paid, or a discount or another start landed meanwhile: answer for the order as it is now.
    order = await getOwnOrder(deps, user.id, orderId);
    requireStartable(order);
    if (!order.marketplaceStartedAt) throw paymentErrors.busy();
  }
  return {
    orderId: order.id,
    marketplaceSku: order.marketplaceSku,
    productType: order.marketplaceProductType ?? 'subscription',
    packageName: deps.marketplace.packageName ?? null,
    developerPayload,
    amount: order.amount,
    ...(order.discount > 0 && key ? { dynamicPriceToken: await dynamicPriceToken(deps, order, key) } : {}),
  };
}
