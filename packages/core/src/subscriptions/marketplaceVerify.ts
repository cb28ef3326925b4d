/**
 * `POST /api/payment/marketplace/verify` `{ orderId, purchaseToken }` (spec Endpoints, Errors, "Order" pending →
 * paid by marketplace verify; DESIGN §8 verify rules; providers.md §2):
 *
 * 1. The caller's own marketplace order (another's is 404); already paid → 409 `already_paid`; refunded → 409.
 * 2. A token already bound to another order → 409 `purchase_token_used` (its SHA-256 digest is the key of the
 *    binding, marketplacePurchase.entity.ts).
 * 3. No credential → 400 `purchase_invalid`, the order left pending (fail closed, spec Authentication 9).
 * 4. The marketplace is asked with the product type of the order's plan (snapshotted at purchase, never from the
 *    client) and the token URL-quoted (the adapter). 404 `not_found` → 400 `purchase_invalid` and the order
 *    `failed`; 401, 403, 5xx, timeouts → 503 `marketplace_unavailable` with Retry-After, the order untouched.
 * 5. An in-app purchase must be purchased (`purchaseState` 0; refunded → failed) and its echoed developerPayload,
 *    when there is one, must be the order's (else 400, order untouched: someone else's purchase); a subscription
 *    must run past now (validUntil).
 * 6. Paid through the same settle path as the gateway (settle.ts), with the token's binding in the same
 *    transaction, so two verifications racing pay once and the other answers 409.
 *
 * Every outcome writes its `payment_result` row (via `marketplace`). The token is never logged nor stored in clear.
 */
import { getUser, type User } from '../auth';
import type { Deps } from '../deps';
import { marketplaceErrors, withMarketplaceAuth } from '../marketplace';
import { type InappPurchase, MarketplaceError, type SubscriptionPurchase } from '../providers/ports';
import { paymentErrors } from './errors';
import { recordEvent } from './events';
import { bindPurchase, type MarketplacePurchase, readMarketplacePurchase } from './marketplacePurchase.entity';
import { renewalCheckAt } from './marketplaceRenewal';
import type { Order } from './order.entity';
import { getOwnOrder } from './orders';
import type { PaymentEventDetails } from './paymentEvent.entity';
import { purchaseTokenDigest, sealPurchaseToken } from './purchaseToken';
import { markFailed, markPaid } from './settle';
import { type SubscriptionStatus, statusOf } from './status';

type MarketplaceOrder = Order & { marketplaceSku: string };

/** Records the verification's outcome on `order` (a `payment_result` via `marketplace`). */
const outcome = (deps: Deps, order: Order, details: PaymentEventDetails) =>
  recordEvent(deps, order.id, 'payment_result', { userId: order.userId, via: 'marketplace', sku: order.marketplaceSku, ...details });

/** Step 1: the order, if it can still be paid by a marketplace purchase. */
async function payableOrder(deps: Deps, user: User, orderId: number): Promise<MarketplaceOrder> {
  const order = await getOwnOrder(deps, user.id, orderId);
  if (order.provider !== 'marketplace' || !order.marketplaceSku) throw paymentErrors.notMarketplaceOrder();
  if (order.status === 'paid') {
    await outcome(deps, order, { result: 'unchanged', ignored: true, reason: 'duplicate' });
    throw paymentErrors.alreadyPaid();
  }
  if (order.status === 'refunded') throw paymentErrors.orderStatusConflict(order.status, 'a refunded order cannot be paid again');
  return order as MarketplaceOrder;
}

/** Step 2: errors when the token already paid another order. */
async function requireUnusedToken(deps: Deps, order: Order, digest: string): Promise<void> {
  const bound = await readMarketplacePurchase(deps.db, digest);
  if (bound && bound.orderId !== order.id) {
    await outcome(deps, order, { result: 'unchanged', ignored: true, reason: 'purchase_token_used' });
    throw paymentErrors.purchaseTokenUsed();
  }
}

type Answer = { kind: 'inapp'; purchase: InappPurchase } | { kind: 'subscription'; purchase: SubscriptionPurchase };

/** Steps 3-4: the marketplace's answer, or the error to answer with (after recording it and failing the order on 404). */
async function askMarketplace(deps: Deps, order: MarketplaceOrder, purchaseToken: string): Promise<Answer> {
  const kind = order.marketplaceProductType ?? 'subscription';
  let answer: { value: Answer } | undefined;
  try {
    answer = await withMarketplaceAuth(
      deps,
      async (auth): Promise<Answer> =>
        kind === 'inapp'
          ? { kind, purchase: await deps.marketplace.validateInapp(auth, order.marketplaceSku, purchaseToken) }
          : { kind, purchase: await deps.marketplace.subscriptionStatus(auth, order.marketplaceSku, purchaseToken) },
    );
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    if (error.kind === 'not_found') {
      await markFailed(deps, order.id, 'marketplace', { note: 'The marketplace does not know this purchase (404 not_found)' });
      throw paymentErrors.purchaseInvalid('The marketplace does not know this purchase');
    }
    if (error.kind === 'refused') {
      await outcome(deps, order, { result: 'unchanged', reason: 'marketplace_refused', note: error.message });
      throw paymentErrors.purchaseInvalid('The marketplace refused to check this purchase token');
    }
    await outcome(deps, order, { result: 'unchanged', reason: 'marketplace_unavailable', note: error.message });
    throw marketplaceErrors.unavailable('The marketplace could not confirm the purchase now; the order is unchanged, try again shortly');
  }
  if (!answer) {
    await outcome(deps, order, { result: 'unchanged', reason: 'no_credential', note: 'No marketplace credential is configured' });
    throw paymentErrors.purchaseInvalid('The purchase cannot be verified: the marketplace connection is not configured');
  }
  return answer.value;
}

/** Step 5: errors when the answer does not prove this order's purchase. */
async function requireValid(deps: Deps, order: MarketplaceOrder, answer: Answer): Promise<void> {
  const now = deps.clock.now();
  if (answer.kind === 'inapp') {
    if (answer.purchase.purchaseState !== 0) {
      await markFailed(deps, order.id, 'marketplace', { note: 'The marketplace reports this purchase refunded' });
      throw paymentErrors.purchaseInvalid('The marketplace reports this purchase refunded');
    }
    const payload = answer.purchase.developerPayload;
    if (payload !== undefined && payload !== order.developerPayload) {
      await outcome(deps, order, { result: 'unchanged', ignored: true, reason: 'developer_payload_mismatch' });
      throw paymentErrors.purchaseInvalid('This purchase was not made for this order (developerPayload differs)');
    }
  } else if (answer.purchase.validUntil <= now) {
    await outcome(deps, order, { result: 'unchanged', reason: 'subscription_expired', validUntil: answer.purchase.validUntil });
    throw paymentErrors.purchaseInvalid('This marketplace subscription has ended');
  }
}

/**
 * Verifies `purchaseToken` for `user`'s order `orderId` and pays it (see the module doc). Returns the order after
 * and the buyer's subscription then.
 *
 * Errors: `not_found`, `validation_error` (not a marketplace order), `already_paid` (409, also for the loser of two
 * verifications racing), `order_status_conflict` (refunded), `purchase_token_used` (409), `purchase_invalid` (400),
 * `marketplace_unavailable` (503, Retry-After 60), `database_busy`.
 */
export async function verifyMarketplacePurchase(
  deps: Deps,
  user: User,
  orderId: number,
  purchaseToken: string,
): Promise<{ order: Order; subscription: SubscriptionStatus }> {
  const order = await payableOrder(deps, user, orderId);
  const digest = purchaseTokenDigest(purchaseToken);
  await requireUnusedToken(deps, order, digest);
  const answer = await askMarketplace(deps, order, purchaseToken);
  await requireValid(deps, order, answer);

  const now = deps.clock.now();
  const validUntil = answer.kind === 'subscription' ? answer.purchase.validUntil : undefined;
  const binding: MarketplacePurchase = {
    tokenDigest: digest,
    orderId: order.id,
    userId: order.userId,
    planId: order.planId,
    sku: order.marketplaceSku,
    productType: answer.kind,
    boundAt: now,
    ...(answer.kind === 'subscription'
      ? {
          sealedToken: sealPurchaseToken(deps.secretKey, purchaseToken, digest),
          validUntil,
          autoRenewing: answer.purchase.autoRenewing,
          renewalState: 'active' as const,
          nextCheckAt: renewalCheckAt(deps, answer.purchase.validUntil),
          lastOrderId: order.id,
          periods: 1,
        }
      : {}),
  };
  const { order: after, changed } = await markPaid(deps, order.id, 'marketplace', { purchaseTokenDigest: digest, validUntil }, order, {
    items: [bindPurchase(deps.db, binding)],
    // The token went to another order meanwhile: say so instead of retrying.
    onLostRace: async () => {
      const bound = await readMarketplacePurchase(deps.db, digest);
      if (bound && bound.orderId !== order.id) {
        await outcome(deps, order, { result: 'unchanged', ignored: true, reason: 'purchase_token_used' });
        throw paymentErrors.purchaseTokenUsed();
      }
    },
  });
  if (!changed) {
    if (after.status === 'paid') throw paymentErrors.alreadyPaid();
    throw paymentErrors.orderStatusConflict(after.status, 'it cannot be paid now');
  }
  return { order: after, subscription: statusOf(deps, (await getUser(deps.db, user.id)) ?? user) };
}
