/**
 * `POST /api/payment/marketplace/verify` `{ orderId, purchaseToken, purchaseData?, dataSignature? }` (spec Endpoints,
 * Errors, "Order" pending → paid by marketplace verify; DESIGN §8 verify rules, "Binding a purchase to its order",
 * "Period truth"; providers.md §2):
 *
 * 1. The caller's own marketplace order (another's is 404); already paid → 409 `already_paid`; refunded → 409.
 * 2. A token already bound to another order → 409 `purchase_token_used` (its SHA-256 digest is the key of the
 *    binding, marketplacePurchase.entity.ts).
 * 3. With MARKETPLACE_PUBLIC_KEY set, a subscription needs the purchase data the marketplace signed (Poolakey's
 *    `originalJson` and `dataSignature`; an in-app purchase is checked when they are sent): the RSA-SHA1 signature
 *    over `purchaseData` exactly as sent, then its `purchaseToken`, `productId`, `packageName` and
 *    `developerPayload` must be this order's (cafebazaarPurchaseData.ts). Missing, forged or another order's →
 *    400 `purchase_invalid`, the order left pending and nothing asked: a token bought on another learner's order
 *    cannot pay this one. The marketplace is still asked (a signature proves the purchase was made, not that it
 *    still stands).
 *    No credential → 400 `purchase_invalid`, the order left pending (fail closed, spec Authentication 9).
 * 4. The marketplace is asked with the product type of the order's plan (snapshotted at purchase, never from the
 *    client) and the token URL-quoted (the adapter). 404 `not_found` → 400 `purchase_invalid` and the order
 *    `failed`; 401, 403, 5xx, timeouts → 503 `marketplace_unavailable` with Retry-After, the order untouched.
 * 5. An in-app purchase must be purchased (`purchaseState` 0; refunded → failed) and its echoed developerPayload,
 *    when there is one, must be the order's (else 400, order untouched: someone else's purchase); a subscription
 *    must run past now (validUntil).
 * 6. Paid through the same settle path as the gateway (settle.ts), with the token's binding in the same
 *    transaction, so two verifications racing pay once and the other answers 409. A subscription is granted until
 *    the marketplace's `validUntil` (period.ts), and its next check is scheduled (marketplaceSchedule.ts); an in-app
 *    product's refund watch starts (marketplaceInappWatch.ts).
 *
 * Every outcome writes its `payment_result` row (via `marketplace`). The token is never logged nor stored in clear.
 */
import { getUser, type User } from '../auth';
import type { Deps } from '../deps';
import { marketplaceErrors, withMarketplaceAuth } from '../marketplace';
import { marketplacePublicKey, readSignedPurchase } from '../providers/cafebazaarPurchaseData';
import { type InappPurchase, MarketplaceError, type SubscriptionPurchase } from '../providers/ports';
import { paymentErrors } from './errors';
import { recordEvent } from './events';
import { nextInappCheck } from './marketplaceInappWatch';
import { bindPurchase, type MarketplacePurchase, readMarketplacePurchase, validAnswer } from './marketplacePurchase.entity';
import { firstCheckAt } from './marketplaceSchedule';
import type { Order } from './order.entity';
import { getOwnOrder } from './orders';
import type { PaymentEventDetails } from './paymentEvent.entity';
import { purchaseTokenDigest, sealPurchaseToken } from './purchaseToken';
import { markFailed, markPaid, type PaymentProof } from './settle';
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
  // Paid once, then ended by the marketplace (an earlier period end: `cancelled`): its purchase is spent.
  if (order.paidAt !== undefined) {
    throw paymentErrors.orderStatusConflict(order.status, 'the marketplace ended this purchase; buy the plan again');
  }
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

/** What the app received from the marketplace with the purchase (Poolakey `originalJson`, `dataSignature`). */
export interface SignedPurchaseInput {
  purchaseData?: string;
  dataSignature?: string;
}

/** Step 3: errors unless the signed purchase data (when required or sent) proves this order's purchase of `purchaseToken`. */
async function requireSignedPurchase(
  deps: Deps,
  order: MarketplaceOrder,
  purchaseToken: string,
  signed: SignedPurchaseInput,
): Promise<void> {
  const key = deps.settings.marketplace.publicKey;
  const sent = signed.purchaseData !== undefined || signed.dataSignature !== undefined;
  if (!key || ((order.marketplaceProductType ?? 'subscription') === 'inapp' && !sent)) return;
  const refuse = async (reason: string, detail: string, fields?: Record<string, string[]>): Promise<never> => {
    await outcome(deps, order, { result: 'unchanged', ignored: true, reason });
    throw paymentErrors.purchaseInvalid(detail, fields);
  };
  if (!signed.purchaseData || !signed.dataSignature) {
    const missing = 'Required: what the marketplace gave the app with this purchase';
    return refuse('purchase_data_missing', 'Send the purchaseData and dataSignature the marketplace gave the app with this purchase', {
      ...(signed.purchaseData ? {} : { purchaseData: [missing] }),
      ...(signed.dataSignature ? {} : { dataSignature: [missing] }),
    });
  }
  const purchase = readSignedPurchase(marketplacePublicKey(key), signed.purchaseData, signed.dataSignature);
  if (purchase === 'bad_signature') {
    return refuse('signature_invalid', 'The purchase data is not signed by the marketplace', {
      dataSignature: ['Does not match purchaseData'],
    });
  }
  if (purchase === 'malformed') return refuse('purchase_data_invalid', 'The signed purchase data is not a purchase');
  const mismatched = (
    [
      ['purchaseToken', purchase.purchaseToken === purchaseToken],
      ['productId', purchase.productId === order.marketplaceSku],
      ['packageName', purchase.packageName === deps.marketplace.packageName],
      ['developerPayload', order.developerPayload !== undefined && purchase.developerPayload === order.developerPayload],
    ] as const
  ).flatMap(([name, same]) => (same ? [] : [name]));
  if (mismatched.length) {
    return refuse('purchase_data_mismatch', `This purchase was not made for this order (${mismatched.join(', ')} differ)`);
  }
  if (purchase.purchaseState !== undefined && purchase.purchaseState !== 0) {
    return refuse('purchase_refunded', 'The marketplace signed this purchase as refunded');
  }
}

type Answer = { kind: 'inapp'; purchase: InappPurchase } | { kind: 'subscription'; purchase: SubscriptionPurchase };

/** What the order and its `payment_result` row keep of the marketplace's answer. */
const proofOf = (digest: string, answer: Answer): PaymentProof => ({
  purchaseTokenDigest: digest,
  marketplaceStatus: 200,
  ...(answer.kind === 'subscription' ? { validUntil: answer.purchase.validUntil, autoRenewing: answer.purchase.autoRenewing } : {}),
});

/** Step 4: the marketplace's answer, or the error to answer with (after recording it and failing the order on 404). */
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
 * Verifies `purchaseToken` (with the signed purchase data `signed`) for `user`'s order `orderId` and pays it (see the
 * module doc). Returns the order after and the buyer's subscription then.
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
  signed: SignedPurchaseInput = {},
): Promise<{ order: Order; subscription: SubscriptionStatus }> {
  const order = await payableOrder(deps, user, orderId);
  const digest = purchaseTokenDigest(purchaseToken);
  await requireUnusedToken(deps, order, digest);
  await requireSignedPurchase(deps, order, purchaseToken, signed);
  const answer = await askMarketplace(deps, order, purchaseToken);
  await requireValid(deps, order, answer);

  const now = deps.clock.now();
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
          validUntil: answer.purchase.validUntil,
          autoRenewing: answer.purchase.autoRenewing,
          renewalState: 'active' as const,
          nextCheckAt: firstCheckAt(deps, digest, answer.purchase.validUntil, now),
          lastOrderId: order.id,
          periods: 1,
          lastAnswer: validAnswer(answer.purchase, now),
        }
      : {
          // Asked again whether it was refunded (marketplaceInappWatch.ts).
          sealedToken: sealPurchaseToken(deps.secretKey, purchaseToken, digest),
          refundWatch: 'active' as const,
          nextCheckAt: nextInappCheck(now, now),
          lastAnswer: { at: now, outcome: 'valid' as const, httpStatus: 200 },
        }),
  };
  const { order: after, changed } = await markPaid(deps, order.id, 'marketplace', proofOf(digest, answer), order, {
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
