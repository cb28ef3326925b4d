/**
 * Endpoint group `billing`: the learner's side of subscriptions (issue 4; spec Endpoints, DESIGN §3 routes):
 * plans and offers (no login), purchase with `Idempotency-Key`, subscription status (re-checks unpaid orders
 * with the gateway), discount redemption, the referral program and invoices. Money is whole toman; times are ISO.
 */
import { type Deps, lazySchema } from '@mathisland/core';
import {
  affiliateOf,
  bindReferrer,
  invoicesOf,
  listOffers,
  type Order,
  orderPricing,
  paymentUrl,
  plansOnSale,
  purchase,
  redeemDiscount,
  subscriptionStatus,
} from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { billingRoutes } from '../../../../infra/routes/billing';
import { defineGroup } from '../lib/group';
import { isoTime } from '../lib/http';
import { created201, idempotencyKeyHeader, idempotencyKeyOf, replayedHeader } from '../lib/idempotency';
import { json } from '../lib/responses';
import { type RouteInput, route, type UserInput } from '../lib/route';
import { Id, IsoTime, OrderStatus, Plan, page, responseShape, SubscriptionStatus, subscriptionAnswer, Toman } from '../lib/shapes';

const orderView = (deps: Deps, order: Order) => ({
  orderId: order.id,
  status: order.status,
  ...orderPricing(order),
  // A pay link only for what still needs paying: a 100% code pays the order at once (issue 29 §1, as at purchase).
  paymentUrl: order.provider === 'gateway' && order.status === 'pending' ? paymentUrl(deps, order.id) : null,
});

const Purchase = lazySchema(() =>
  z.strictObject({
    planId: z.number().int().positive(),
    paymentMethod: z.enum(['gateway', 'marketplace'], "paymentMethod must be 'gateway' or 'marketplace'"),
    discountCode: z.string().min(1).max(64).optional(),
  }),
);
const Redeem = lazySchema(() => z.strictObject({ code: z.string().min(1).max(64), orderId: z.number().int().positive() }));
const Referrer = lazySchema(() => z.strictObject({ code: z.string().min(1).max(64) }));

type Input = UserInput<undefined, unknown>;

const PurchaseHeaders = idempotencyKeyHeader('Same key, user and body: the first answer is replayed', { required: true });
const Pricing = { planId: Id, listPrice: Toman, discount: Toman, amount: Toman.meta({ description: 'What the learner pays' }) };
const Purchased = responseShape(() =>
  z
    .object({
      orderId: Id,
      status: z.enum(['pending', 'paid']).meta({
        description: '`pending`: pay it (paymentUrl or marketplaceSku); `paid`: a 100 % discount code paid it at once, nothing to open',
      }),
      paymentUrl: z
        .string()
        .nullable()
        .meta({ description: 'Gateway orders to pay: open it in a browser; null for the marketplace and for a paid order' }),
      ...Pricing,
      marketplaceSku: z
        .string()
        .optional()
        .meta({ description: 'Marketplace orders to pay: the plan’s SKU to sell in the marketplace app' }),
      subscription: SubscriptionStatus.nullable().meta({
        description: 'A paid order: the subscription it granted (as `GET /api/subscription/status` answers); null while pending',
      }),
    })
    .meta({ id: 'PurchaseAnswer' }),
);
const OrderView = responseShape(() =>
  z.object({
    orderId: Id,
    status: OrderStatus,
    ...Pricing,
    planTitle: z.string(),
    durationDays: z.number().int().positive(),
    discountCode: z.string().nullable(),
    paymentUrl: z.string().nullable().meta({ description: 'Gateway orders still pending: open it in a browser; null otherwise' }),
  }),
);
const Offer = responseShape(() =>
  z.object({
    code: z.string(),
    title: z.string(),
    percent: z.number().int().min(1).max(100),
    validUntil: IsoTime.nullable(),
    planIds: z.array(Id).nullable().meta({ description: 'null: every plan' }),
  }),
);
const Affiliate = responseShape(() =>
  z.object({
    code: z.string().meta({ description: 'The caller’s own referral code' }),
    commissionPercent: z.number().int().min(0),
    hasReferrer: z.boolean(),
    invitees: z.array(z.object({ publicId: z.string(), boundAt: IsoTime.nullable(), commission: Toman })),
    commission: z.object({ earned: Toman, reversed: Toman }),
  }),
);
const Invoice = responseShape(() =>
  z.object({
    invoiceNumber: z.string(),
    orderId: Id,
    planId: Id,
    planTitle: z.string(),
    durationDays: z.number().int().positive(),
    listPrice: Toman,
    discountCode: z.string().nullable(),
    discount: Toman,
    amount: Toman,
    status: z.enum(['paid', 'refunded', 'cancelled']).meta({
      description: '`cancelled`: a marketplace subscription the marketplace ended before the period paid for (paid all the same)',
    }),
    provider: z.enum(['gateway', 'marketplace']),
    createdAt: IsoTime.nullable(),
    paidAt: IsoTime.nullable(),
    refundedAt: IsoTime.nullable(),
    cancelledAt: IsoTime.nullable(),
    refId: z.string().nullable().meta({ description: 'The gateway’s reference id' }),
  }),
);
const discountErrors = {
  discount_invalid: 'The code is unknown, inactive, outside its dates, used up, or not for this plan.',
  'discount_not_allowed/marketplace': 'A code on a marketplace order without the dynamic-price key (or after its start step).',
};

const plans = ({ deps }: RouteInput<undefined, unknown>) => plansOnSale(deps);

async function offers({ deps }: RouteInput<undefined, unknown>) {
  return { items: (await listOffers(deps)).map((o) => ({ ...o, validUntil: isoTime(o.validUntil) })) };
}

async function buy({ deps, user, body, event }: UserInput<z.infer<typeof Purchase>, unknown>) {
  const key = idempotencyKeyOf(event, { required: true });
  const { response, replayed } = await purchase(deps, user, { ...body, idempotencyKey: key });
  return created201({ ...response, subscription: response.subscription && subscriptionAnswer(response.subscription) }, replayed);
}

async function status({ deps, user }: Input) {
  const value = await subscriptionStatus(deps, user);
  return subscriptionAnswer(value);
}

const redeem = async ({ deps, user, body }: UserInput<z.infer<typeof Redeem>, unknown>) =>
  orderView(deps, await redeemDiscount(deps, user, body.code, body.orderId));

async function affiliate({ deps, user }: Input) {
  const view = await affiliateOf(deps, user);
  return { ...view, invitees: view.invitees.map((i) => ({ ...i, boundAt: isoTime(i.boundAt) })) };
}

async function bind({ deps, user, body }: UserInput<z.infer<typeof Referrer>, unknown>) {
  const bound = await bindReferrer(deps, user, body.code);
  return { referrer: bound.referrer, boundAt: isoTime(bound.boundAt) };
}

async function invoices({ deps, user }: Input) {
  const items = await invoicesOf(deps, user.id);
  return {
    items: items.map((i) => ({
      ...i,
      createdAt: isoTime(i.createdAt),
      paidAt: isoTime(i.paidAt),
      refundedAt: isoTime(i.refundedAt),
      cancelledAt: isoTime(i.cancelledAt),
    })),
  };
}

export const { handler, createHandler, routes } = defineGroup(billingRoutes, {
  'GET /api/plans': route.public({
    description: 'Plans on sale only; never a marketplace SKU.',
    responses: { 200: responseShape(() => z.object({ items: z.array(Plan), freeAiDailyQuota: z.number().int().min(0) })) },
    run: plans,
  }),
  'GET /api/offers': route.public({ description: 'Advertised discount codes valid now.', responses: { 200: page(Offer) }, run: offers }),
  'POST /api/subscription/purchase': route.user({
    body: Purchase,
    headers: PurchaseHeaders,
    bodyExamples: {
      gateway: { summary: 'Purchase through the gateway', value: { planId: 2, paymentMethod: 'gateway' } },
      marketplace: { summary: 'Purchase through the marketplace', value: { planId: 2, paymentMethod: 'marketplace' } },
      discounted: { summary: 'With a discount code', value: { planId: 2, paymentMethod: 'gateway', discountCode: 'WELCOME10' } },
    },
    description:
      'A pending order to pay, or, when a 100 % discount code makes it free, an order paid at once (`status: paid`, no pay link, the subscription it granted). The same `Idempotency-Key` and body replay the first answer (header `Idempotent-Replayed: true`).',
    responses: {
      201: json(Purchased, 'The order: pending, or paid when free', {
        headers: replayedHeader,
        examples: {
          gateway: {
            summary: 'Gateway: open paymentUrl',
            value: {
              orderId: 41,
              status: 'pending',
              paymentUrl: 'https://api.example.ir/api/payment/orders/41/pay?sig=…',
              planId: 2,
              listPrice: 290000,
              discount: 0,
              amount: 290000,
              subscription: null,
            },
          },
          marketplace: {
            summary: 'Marketplace: sell marketplaceSku',
            value: {
              orderId: 42,
              status: 'pending',
              paymentUrl: null,
              planId: 2,
              listPrice: 290000,
              discount: 0,
              amount: 290000,
              marketplaceSku: 'mathisland_sub_1m',
              subscription: null,
            },
          },
          free: {
            summary: 'A 100 % code: paid at once, nothing to open',
            value: {
              orderId: 43,
              status: 'paid',
              paymentUrl: null,
              planId: 2,
              listPrice: 290000,
              discount: 290000,
              amount: 0,
              subscription: {
                status: 'active',
                active: true,
                plan: { id: 2, title: 'اشتراک سه‌ماهه' },
                expiresAt: '2026-02-18T08:00:00.000Z',
                source: 'gateway',
                marketplaceValidUntil: null,
                aiDailyQuota: 4,
                freeAiDailyQuota: 2,
                recheckedOrders: [],
              },
            },
          },
        },
      }),
    },
    errors: {
      validation_error: 'A bad body, a plan not on sale, or a missing or malformed `Idempotency-Key`.',
      marketplace_sku_missing: 'The plan has no marketplace SKU.',
      ...discountErrors,
      idempotency_conflict: 'The key was used with another plan, provider or code.',
      gateway_unavailable: 'The gateway is unset or unreachable.',
    },
    run: buy,
  }),
  'GET /api/subscription/status': route.user({
    description: 'Re-checks the caller’s unpaid gateway orders and runs the marketplace renewal sync first.',
    responses: { 200: SubscriptionStatus },
    run: status,
  }),
  'POST /api/discounts/redeem': route.user({
    body: Redeem,
    description: 'Status `paid` after a 100% code.',
    responses: { 200: OrderView },
    errors: {
      ...discountErrors,
      not_found: 'No such order of the caller’s.',
      already_paid: 'The order is paid.',
      order_status_conflict: 'The order is not pending.',
      discount_not_allowed: 'The order has a code already, or its gateway step began.',
    },
    run: redeem,
  }),
  'GET /api/affiliate': route.user({ responses: { 200: Affiliate }, run: affiliate }),
  'POST /api/affiliate/referrer': route.user({
    body: Referrer,
    description: 'The same code again answers the same; an unknown or own code is 400 `validation_error`.',
    responses: {
      200: responseShape(() =>
        z.object({ referrer: z.string().meta({ description: 'The referrer’s publicId' }), boundAt: IsoTime.nullable() }),
      ),
    },
    errors: { referrer_already_set: 'The caller has another referrer already.' },
    run: bind,
  }),
  'GET /api/payment/invoices': route.user({
    description: 'Paid and refunded orders, newest first.',
    responses: { 200: page(Invoice) },
    run: invoices,
  }),
});
