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
} from '@mathisland/core/subscriptions/index';
import { z } from 'zod';
import { defineGroup, header, isoTime, publicBaseUrl, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

/** `Idempotency-Key`: 8-128 of A-Z a-z 0-9 _ . : - (a UUID fits). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

function idempotencyKey(value: string | undefined): string {
  if (value && IDEMPOTENCY_KEY.test(value)) return value;
  const message = value ? '8 to 128 of A-Z a-z 0-9 _ . : -' : 'required';
  throw new DomainError('validation_error', `The Idempotency-Key header is ${value ? 'not valid' : 'missing'}`, {
    fields: { 'Idempotency-Key': [message] },
  });
}

const orderView = (deps: Deps, baseUrl: string, order: Order) => ({
  orderId: order.id,
  status: order.status,
  ...orderPricing(order),
  paymentUrl: paymentUrl(deps, baseUrl, order.id),
});

export const { handler, routes } = defineGroup('billing', {
  'GET /api/plans': route({ run: ({ deps }) => plansOnSale(deps) }),
  'GET /api/offers': route({
    run: async ({ deps }) => ({ items: (await listOffers(deps)).map((o) => ({ ...o, validUntil: isoTime(o.validUntil) })) }),
  }),
  'POST /api/subscription/purchase': route({
    body: z.strictObject({
      planId: z.number().int().positive(),
      paymentMethod: z.enum(['gateway', 'marketplace'], "paymentMethod must be 'gateway' or 'marketplace'"),
      discountCode: z.string().min(1).max(64).optional(),
    }),
    async run({ deps, user, body, event }) {
      const key = idempotencyKey(header(event, 'idempotency-key'));
      const { response, replayed } = await purchase(deps, user, { ...body, idempotencyKey: key }, publicBaseUrl(event));
      return new HttpResponse(201, response, replayed ? { 'idempotent-replayed': 'true' } : {});
    },
  }),
  'GET /api/subscription/status': route({
    async run({ deps, user }) {
      const status = await subscriptionStatus(deps, user);
      return { ...status, expiresAt: isoTime(status.expiresAt) };
    },
  }),
  'POST /api/discounts/redeem': route({
    body: z.strictObject({ code: z.string().min(1).max(64), orderId: z.number().int().positive() }),
    run: async ({ deps, user, body, event }) =>
      orderView(deps, publicBaseUrl(event), await redeemDiscount(deps, user, body.code, body.orderId)),
  }),
  'GET /api/affiliate': route({
    async run({ deps, user }) {
      const view = await affiliateOf(deps, user);
      return { ...view, invitees: view.invitees.map((i) => ({ ...i, boundAt: isoTime(i.boundAt) })) };
    },
  }),
  'POST /api/affiliate/referrer': route({
    body: z.strictObject({ code: z.string().min(1).max(64) }),
    async run({ deps, user, body }) {
      const bound = await bindReferrer(deps, user, body.code);
      return { referrer: bound.referrer, boundAt: isoTime(bound.boundAt) };
    },
  }),
  'GET /api/payment/invoices': route({
    async run({ deps, user }) {
      const invoices = await invoicesOf(deps, user.id);
      return {
        items: invoices.map((i) => ({
          ...i,
          createdAt: isoTime(i.createdAt),
          paidAt: isoTime(i.paidAt),
          refundedAt: isoTime(i.refundedAt),
        })),
      };
    },
  }),
});
