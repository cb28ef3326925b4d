/**
 * Endpoint group `billing`: the learner's side of subscriptions (issue 4; spec Endpoints, DESIGN §3 routes):
 * plans and offers (no login), purchase with `Idempotency-Key`, subscription status (re-checks unpaid orders
 * with the gateway), discount redemption, the referral program and invoices. Money is whole toman; times are ISO.
 */
import { type Deps, DomainError } from '@mathisland/core';
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
import { defineGroup } from '../lib/group';
import { HttpResponse, header, isoTime } from '../lib/http';
import { type RouteInput, route, type UserInput } from '../lib/route';

/** `Idempotency-Key`: 8-128 of A-Z a-z 0-9 _ . : - (a UUID fits). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

function idempotencyKey(value: string | undefined): string {
  if (value && IDEMPOTENCY_KEY.test(value)) return value;
  const message = value ? '8 to 128 of A-Z a-z 0-9 _ . : -' : 'required';
  throw new DomainError('validation_error', `The Idempotency-Key header is ${value ? 'not valid' : 'missing'}`, {
    fields: { 'Idempotency-Key': [message] },
  });
}

const orderView = (deps: Deps, order: Order) => ({
  orderId: order.id,
  status: order.status,
  ...orderPricing(order),
  paymentUrl: order.provider === 'gateway' ? paymentUrl(deps, order.id) : null,
});

const Purchase = z.strictObject({
  planId: z.number().int().positive(),
  paymentMethod: z.enum(['gateway', 'marketplace'], "paymentMethod must be 'gateway' or 'marketplace'"),
  discountCode: z.string().min(1).max(64).optional(),
});
const Redeem = z.strictObject({ code: z.string().min(1).max(64), orderId: z.number().int().positive() });
const Referrer = z.strictObject({ code: z.string().min(1).max(64) });

type Input = UserInput<undefined, unknown>;

const plans = ({ deps }: RouteInput<undefined, unknown>) => plansOnSale(deps);

async function offers({ deps }: RouteInput<undefined, unknown>) {
  return { items: (await listOffers(deps)).map((o) => ({ ...o, validUntil: isoTime(o.validUntil) })) };
}

async function buy({ deps, user, body, event }: UserInput<z.infer<typeof Purchase>, unknown>) {
  const key = idempotencyKey(header(event, 'idempotency-key'));
  const { response, replayed } = await purchase(deps, user, { ...body, idempotencyKey: key });
  return new HttpResponse(201, response, replayed ? { 'idempotent-replayed': 'true' } : {});
}

async function status({ deps, user }: Input) {
  const value = await subscriptionStatus(deps, user);
  return { ...value, expiresAt: isoTime(value.expiresAt) };
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
    items: items.map((i) => ({ ...i, createdAt: isoTime(i.createdAt), paidAt: isoTime(i.paidAt), refundedAt: isoTime(i.refundedAt) })),
  };
}

export const { handler, createHandler, routes } = defineGroup('billing', {
  'GET /api/plans': route.public({ run: plans }),
  'GET /api/offers': route.public({ run: offers }),
  'POST /api/subscription/purchase': route.user({ body: Purchase, run: buy }),
  'GET /api/subscription/status': route.user({ run: status }),
  'POST /api/discounts/redeem': route.user({ body: Redeem, run: redeem }),
  'GET /api/affiliate': route.user({ run: affiliate }),
  'POST /api/affiliate/referrer': route.user({ body: Referrer, run: bind }),
  'GET /api/payment/invoices': route.user({ run: invoices }),
});
