/**
 * `POST /api/subscription/purchase` (spec Endpoints, "Order" (new) → pending; DESIGN §3 Idempotency): creates a
 * pending order that snapshots the plan, optionally with a discount code, under the caller's `Idempotency-Key`.
 *
 * Idempotency: the key is stored per user (`USER#<id>` / `IDEMPOTENCY#purchase#<key>`) in the order's creation
 * transaction, with the request it was used for and the response given. The same key with the same request
 * replays that response; with another plan, payment method (provider) or discount code it is 409
 * `idempotency_conflict`, forever. Two requests racing with one key create one order.
 *
 * A code that takes the whole price (100 %) makes the order free: it is paid at once (settle.ts `markPaid`, via
 * `discount`) and the answer says so: `status: 'paid'`, no pay link (`paymentUrl` and `marketplaceSku` absent or
 * null) and the subscription it granted; that answer replaces the stored one, so replays repeat it. A free order
 * whose payment did not happen (a crash between the two writes) is paid by the next replay, or by its pay link.
 */
import { getUser, type User } from '../auth';
import { failedItems, isConditionFailure } from '../db/conditions';
import { nextId } from '../db/counters';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { countItem } from '../stats';
import { getDiscount, normalizeDiscountCode, priced, requireUsable } from './discounts';
import { redemptionFailure, useDiscountItems } from './discountUse';
import { paymentErrors } from './errors';
import { createOrder, type Order, type Provider } from './order.entity';
import { getOrder, paymentUrl } from './orders';
import { eventItem } from './paymentEvent.entity';
import { markPlanOrdered, type Plan } from './plan.entity';
import { planOnSale } from './plans';
import {
  claimPurchaseKey,
  type PurchaseFingerprint,
  type PurchaseResponse,
  readPurchaseKey,
  storePaidResponse,
} from './purchaseKey.entity';
import { markPaid } from './settle';
import { statusOf } from './statusView';

export interface PurchaseRequest {
  planId: number;
  paymentMethod: Provider;
  discountCode?: string;
  idempotencyKey: string;
}

/**
 * The first answer given for `idempotencyKey` of `userId`, or undefined for a new key. Errors:
 * `idempotency_conflict` when the key was used for another request than `wanted`.
 */
async function replay(deps: Deps, user: User, idempotencyKey: string, wanted: PurchaseFingerprint): Promise<PurchaseResponse | undefined> {
  const stored = await readPurchaseKey(deps.db, user.id, idempotencyKey);
  if (!stored) return undefined;
  const used = stored.request;
  if (used.planId !== wanted.planId || used.provider !== wanted.provider || used.discountCode !== wanted.discountCode) {
    throw paymentErrors.idempotencyConflict();
  }
  // A free order whose paid answer was never stored (the first request stopped after creating it): finish it now.
  if (stored.response.amount === 0 && stored.response.status !== 'paid') return payFreeOrder(deps, user, idempotencyKey, stored.response);
  return stored.response;
}

/**
 * Pays the free order of `pending` (unless it is paid already) and stores and returns its paid answer: `status:
 * 'paid'`, no pay link, the subscription the caller holds now. An order staff cancelled meanwhile is left as it is
 * and `pending` is returned unchanged. Errors: `database_busy` (settle.ts).
 */
async function payFreeOrder(deps: Deps, user: User, idempotencyKey: string, pending: PurchaseResponse): Promise<PurchaseResponse> {
  let order = await getOrder(deps, pending.orderId);
  if (order.status === 'pending') order = (await markPaid(deps, order.id, 'discount', {}, order)).order;
  if (order.status !== 'paid' && order.status !== 'refunded') return pending;
  const { marketplaceSku: _sku, ...rest } = pending;
  const paid: PurchaseResponse = {
    ...rest,
    status: 'paid',
    paymentUrl: null,
    subscription: statusOf(deps, (await getUser(deps.db, user.id)) ?? user),
  };
  await storePaidResponse(deps.db, user.id, idempotencyKey, paid);
  return paid;
}

/**
 * The plan's marketplace product of a marketplace purchase (DESIGN §8): its SKU (admin-set, unique; never from the
 * app) and product type, and whether a discount code may come with it. Errors: `marketplace_sku_missing` (400),
 * `discount_not_allowed` (400: a code without MARKETPLACE_DYNAMIC_PRICE_KEY, spec Errors).
 */
function marketplaceProduct(deps: Deps, plan: Plan, discountCode: string | null) {
  if (!plan.marketplaceSku) throw paymentErrors.skuMissing();
  if (discountCode !== null && !deps.settings.marketplace.dynamicPriceKey) {
    throw paymentErrors.marketplaceDiscountRefused(
      'Discount codes cannot be used on marketplace purchases here (no dynamic-price key is configured); pay through the gateway to use one',
    );
  }
  return { marketplaceSku: plan.marketplaceSku, marketplaceProductType: plan.marketplaceProductType ?? 'subscription' };
}

/**
 * Creates the order (or replays the key's first answer): a gateway order with its pay link under PUBLIC_BASE_URL,
 * or a marketplace order with the plan's SKU (`paymentUrl` null; the app then calls the start step and buys the
 * SKU in the marketplace); both `status: 'pending'`, `subscription: null`. A free order (100 % code) is paid at once
 * and answers `status: 'paid'`, `paymentUrl: null` and the subscription it granted (see the module doc).
 *
 * Errors: `idempotency_conflict` (409), `validation_error` (plan not on sale), `marketplace_sku_missing` (400),
 * `discount_invalid`, `discount_not_allowed` (marketplace without the dynamic-price key), `gateway_unavailable`
 * (503: the gateway is not configured and there is something to pay).
 */
export async function purchase(
  deps: Deps,
  user: User,
  request: PurchaseRequest,
): Promise<{ response: PurchaseResponse; replayed: boolean }> {
  const discountCode = request.discountCode === undefined ? null : normalizeDiscountCode(request.discountCode);
  const fingerprint: PurchaseFingerprint = { planId: request.planId, provider: request.paymentMethod, discountCode };
  const earlier = await replay(deps, user, request.idempotencyKey, fingerprint);
  if (earlier) return { response: earlier, replayed: true };

  const plan = await planOnSale(deps, request.planId);
  const marketplace = request.paymentMethod === 'marketplace' ? marketplaceProduct(deps, plan, discountCode) : undefined;
  const now = deps.clock.now();
  const discount = discountCode === null ? undefined : requireUsable(await getDiscount(deps, discountCode), now, plan.id);
  const price = discount ? priced(plan.price, discount) : { discount: 0, amount: plan.price };
  if (price.amount > 0 && !marketplace && !deps.gateway.configured) throw paymentErrors.gatewayNotConfigured();

  const id = await nextId(deps.db, 'order');
  const order: Order = {
    id,
    userId: user.id,
    planId: plan.id,
    planTitle: plan.title,
    durationDays: plan.durationDays,
    aiDailyQuota: plan.aiDailyQuota,
    listPrice: plan.price,
    ...price,
    status: 'pending',
    provider: request.paymentMethod,
    idempotencyKey: request.idempotencyKey,
    createdAt: now,
    updatedAt: now,
    ...marketplace,
  };
  const free = price.amount === 0;
  const response: PurchaseResponse = {
    orderId: id,
    status: 'pending',
    paymentUrl: marketplace || free ? null : paymentUrl(deps, id),
    ...(marketplace && !free ? { marketplaceSku: marketplace.marketplaceSku } : {}),
    planId: plan.id,
    listPrice: plan.price,
    discount: price.discount,
    amount: price.amount,
    subscription: null,
  };
  const items: TxItem[] = [
    createOrder(deps.db, order),
    claimPurchaseKey(deps.db, user.id, request.idempotencyKey, { orderId: id, request: fingerprint, response, createdAt: now }),
    eventItem(deps.db, id, now, 'order_created', { userId: user.id, planId: plan.id, amount: plan.price }, 0),
  ];
  const firstRedemption = items.length;
  if (discount) {
    items.push(
      ...useDiscountItems(deps.db, discount, user.id, id, now, price.discount),
      eventItem(
        deps.db,
        id,
        now,
        'discount_applied',
        { userId: user.id, discountCode: discount.code, percent: discount.percent, discount: price.discount, amount: price.amount },
        1,
      ),
    );
  }
  // Last, so the indexes above stay as the error handling below reads them: the plan's first order, the dashboard.
  items.push(...markPlanOrdered(deps.db, plan), countItem(deps.db, now, { orders: 1 }));
  try {
    await transact(deps.db, items);
  } catch (error) {
    const failed = failedItems(error);
    if (failed.includes(1)) {
      // The same key won a race: answer as a replay (or a conflict).
      const winner = await replay(deps, user, request.idempotencyKey, fingerprint);
      if (winner) return { response: winner, replayed: true };
    }
    const redemption = failed.find((i) => i >= firstRedemption && i < firstRedemption + 3);
    if (redemption !== undefined) throw redemptionFailure(redemption - firstRedemption);
    if (isConditionFailure(error)) throw paymentErrors.busy();
    throw error;
  }
  if (free) return { response: await payFreeOrder(deps, user, request.idempotencyKey, response), replayed: false };
  return { response, replayed: false };
}
