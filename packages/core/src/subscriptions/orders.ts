/**
 * Reading orders for the API (spec "Order"): the order by id (staff, the gateway steps) or only the caller's own,
 * the fields its invoice and its API views share, and the signed pay link. Storage: order.entity.ts.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../auth';
import type { Deps } from '../deps';
import { paymentErrors } from './errors';
import { type Order, readOrder } from './order.entity';

/** What an order snapshotted and what it costs (toman): the fields its invoice and its API views share. */
export const orderPricing = (order: Order) => ({
  planId: order.planId,
  planTitle: order.planTitle,
  durationDays: order.durationDays,
  listPrice: order.listPrice,
  discountCode: order.discountCode ?? null,
  discount: order.discount,
  amount: order.amount,
});

/** The order. Errors: `not_found`. */
export async function getOrder(deps: Pick<Deps, 'db'>, orderId: number): Promise<Order> {
  const order = await readOrder(deps.db, orderId);
  if (!order) throw paymentErrors.orderNotFound();
  return order;
}

/** The order when it belongs to `userId`; someone else's order is `not_found` too (no probing). */
export async function getOwnOrder(deps: Pick<Deps, 'db'>, userId: number, orderId: number): Promise<Order> {
  const order = await readOrder(deps.db, orderId);
  if (!order || order.userId !== userId) throw paymentErrors.orderNotFound();
  return order;
}

/**
 * The signature that makes an order's pay link unguessable: HMAC-SHA256 under SECRET_KEY of `pay:<orderId>`,
 * base64url, 22 characters (128 bits). Order ids are sequential; without it anyone could open other people's
 * pay links, see their plan and amount, and start their gateway step (which ends the discount-code window).
 */
const payLinkSignature = (deps: Pick<Deps, 'secretKey'>, orderId: number): string =>
  createHmac('sha256', deps.secretKey).update(`pay:${orderId}`).digest('base64url').slice(0, 22);

/** Whether `signature` is the pay link signature of `orderId` (constant time). */
export const validPayLinkSignature = (deps: Pick<Deps, 'secretKey'>, orderId: number, signature: string | undefined): boolean =>
  signature !== undefined && safeEqual(signature, payLinkSignature(deps, orderId));

/**
 * The API's public base URL (PUBLIC_BASE_URL), which every link the service hands out is built from, never the
 * request's Host header (DESIGN §11). Errors: `gateway_unavailable` (503) when it is not set: the payment path
 * fails closed rather than hand out a link to wherever the request claimed to come from.
 */
export function publicBaseUrl(deps: Pick<Deps, 'settings'>): string {
  const base = deps.settings.publicBaseUrl;
  if (!base) throw paymentErrors.gatewayUnavailable('Payments are unavailable: PUBLIC_BASE_URL is not set');
  return base;
}

/** The URL of the order's pay link: `{PUBLIC_BASE_URL}/api/payment/orders/<id>/pay?sig=<signature>`. */
export const paymentUrl = (deps: Pick<Deps, 'secretKey' | 'settings'>, orderId: number): string =>
  `${publicBaseUrl(deps)}/api/payment/orders/${orderId}/pay?sig=${payLinkSignature(deps, orderId)}`;

/** The gateway's callback into this API: `{PUBLIC_BASE_URL}/api/payment/gateway/callback`. */
export const gatewayCallbackUrl = (deps: Pick<Deps, 'settings'>): string => `${publicBaseUrl(deps)}/api/payment/gateway/callback`;
