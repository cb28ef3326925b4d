/**
 * The gateway steps of an order (spec Endpoints: pay link, callback, subscription status; "States and
 * transitions / Order"; providers.md §1):
 *
 * - {@link startPayment}: the pay link. The first visit of a pending order asks the gateway for an authority and
 *   stores it (with its unique `AUTHORITY#` item and a `gateway_redirect` row, one transaction); every visit then
 *   goes to the gateway's start page. A finished order's link goes to the frontend with its status.
 * - {@link handleCallback}: the browser's return from the gateway. Whatever its `Status`, the payment is verified
 *   server to server with the amount from the order (100 and 101 both mean paid); then paid (settle.ts
 *   `markPaid`) or failed (`markFailed`). An unknown authority is recorded and changes nothing.
 * - {@link recheckOrders}: run by the status route (status.ts) and the re-check job. Fails the caller's checkouts that
 *   expired: never started, or started in the marketplace and never verified (checkoutExpiry.ts). Asks the gateway
 *   once for its paid-but-unverified payments and verifies the caller's unpaid orders among them (failed ones too: a
 *   buyer can pay on a page left open after a forged `Status=NOK` failed the order), so a payment whose redirect was
 *   lost becomes paid. An order the gateway does not list is left as it is (its payer may still be on the gateway page),
 *   until its gateway step began {@link ABANDONED_AFTER_MINUTES} minutes ago: then it is verified too, and an
 *   unpaid verdict marks it failed (an abandoned checkout; its discount use comes back). Paying it later still
 *   works: a successful verification pays a failed order.
 *
 * The gateway being off (GATEWAY_MERCHANT_ID unset or empty), unreachable or refusing is 503
 * `gateway_unavailable` with Retry-After, recorded as `gateway_request_failed`; the order is never marked failed
 * for it. -14 (callback domain mismatch) names the fix: register the API domain in the gateway panel.
 */

import { retryOptimistic } from '../db/conditions';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { DomainError } from '../errors';
import { logger } from '../log';
import { GatewayError, type VerifyOutcome } from '../providers/ports';
import { claimAuthority, orderIdOfAuthority } from './authority.entity';
import { expireCheckouts, isExpiredCheckout } from './checkoutExpiry';
import { paymentErrors } from './errors';
import { recordEvent, recordUnmatchedCallback } from './events';
import { type Order, type OrderStatus, orderKey, ordersOfUser } from './order.entity';
import { gatewayCallbackUrl, getOrder, validPayLinkSignature } from './orders';
import { eventItem, type PaymentPath } from './paymentEvent.entity';
import { markFailed, markPaid, type SettleResult } from './settle';

/** At most this many unpaid orders are re-checked per status read (newest first). */
export const RECHECK_MAX_ORDERS = 5;

/**
 * A pending order whose gateway step began this long ago is treated as an abandoned checkout by the re-check
 * (ours: a gateway payment session lasts minutes, not an hour).
 */
export const ABANDONED_AFTER_MINUTES = 60;

export type PayLink = { kind: 'gateway'; url: string } | { kind: 'finished'; orderId: number; status: OrderStatus };

const finished = (order: Order): PayLink => ({ kind: 'finished', orderId: order.id, status: order.status });
const gatewayLink = (deps: Deps, authority: string): PayLink => ({ kind: 'gateway', url: deps.gateway.startPayUrl(authority) });

/** Records a failed gateway call on the order and returns the 503 to throw. */
async function gatewayFailure(deps: Deps, order: Order, error: GatewayError, step: string, callbackUrl?: string): Promise<DomainError> {
  await recordEvent(deps, order.id, 'gateway_request_failed', {
    userId: order.userId,
    authority: order.authority,
    gatewayCode: error.code,
    note: `${step}: ${error.message}`,
  });
  if (error.kind === 'not_configured') return paymentErrors.gatewayNotConfigured();
  if (error.kind === 'callback_refused' && callbackUrl) return paymentErrors.callbackDomainMismatch(new URL(callbackUrl).hostname);
  return paymentErrors.gatewayUnavailable(`The payment gateway could not ${step}; try again shortly`);
}

/** Attempts of a pay link's first visit: a discount applied, or a conflicting write, while it asked the gateway makes it ask again. */
const START_ATTEMPTS = 3;

/**
 * The pay link of order `orderId` with its signature `sig` (orders.ts `payLinkSignature`); the gateway calls back
 * to `{PUBLIC_BASE_URL}/api/payment/gateway/callback`.
 *
 * The authority is stored only if the order still costs what the gateway was asked to charge (condition on
 * `amount`): a discount code applied while the gateway was being asked (redeem.ts lowers `amount` until the
 * authority exists) would otherwise leave the gateway charging the old price while the callback verifies the new
 * one (providers.md §1: verify must send the same amount; -50), failing a paid order. Then the gateway is asked
 * again for the new amount; the first authority is never used and lapses at the gateway.
 *
 * Errors: `not_found` (no such order, or a wrong signature), `gateway_unavailable` (503: not configured,
 * unreachable, refused; -14 with the fix), `database_busy` (the order kept changing under it).
 */
export async function startPayment(deps: Deps, orderId: number, sig: string | undefined): Promise<PayLink> {
  if (!validPayLinkSignature(deps, orderId, sig)) throw paymentErrors.orderNotFound();
  let current: Order | undefined;
  return retryOptimistic(
    async () => startOnce(deps, current ?? (await getOrder(deps, orderId))),
    // The authority was not stored: another visit stored its own first (ours is simply never used), the order
    // settled, or a discount changed its amount (or a conflicting write cancelled ours): ask again for it as it is now.
    async () => {
      current = await getOrder(deps, orderId);
      if (current.status !== 'pending') return { result: finished(current) };
      if (current.authority) return { result: gatewayLink(deps, current.authority) };
      return undefined;
    },
    { attempts: START_ATTEMPTS, busy: paymentErrors.busy },
  );
}

/**
 * One attempt of {@link startPayment} on `read`, the order as read. Errors: a failed condition when the order
 * changed before its authority was stored (the caller reads it again).
 */
async function startOnce(deps: Deps, read: Order): Promise<PayLink> {
  let order = read;
  // A free order whose grant did not happen at purchase (a crash in between) is completed here.
  if (order.status === 'pending' && order.amount === 0) order = (await markPaid(deps, order.id, 'discount')).order;
  // A marketplace order is paid in the app, never at the gateway: its link only tells where it stands.
  if (order.status !== 'pending' || order.provider === 'marketplace') return finished(order);
  if (!deps.gateway.configured) throw paymentErrors.gatewayNotConfigured();
  if (order.authority) return gatewayLink(deps, order.authority);

  const callbackUrl = gatewayCallbackUrl(deps);
  let authority: string;
  try {
    ({ authority } = await deps.gateway.request({
      amountToman: order.amount,
      description: `${order.planTitle} (order ${order.id})`,
      callbackUrl,
      orderId: order.id,
    }));
  } catch (error) {
    if (error instanceof GatewayError) throw await gatewayFailure(deps, order, error, 'start the payment', callbackUrl);
    throw error;
  }
  const now = deps.clock.now();
  await transact(deps.db, [
    update(deps.db, orderKey(order.id), 'SET authority = :authority, gatewayStartedAt = :now, updatedAt = :now', {
      condition: '#s = :pending AND attribute_not_exists(authority) AND amount = :amount',
      names: { '#s': 'status' },
      values: { ':authority': authority, ':now': now, ':pending': 'pending', ':amount': order.amount },
    }),
    claimAuthority(deps.db, authority, order.id),
    eventItem(deps.db, order.id, now, 'gateway_redirect', { userId: order.userId, authority, amount: order.amount }),
  ]);
  return gatewayLink(deps, authority);
}

/** Verifies `order`'s authority and settles it. Errors: `gateway_unavailable` (recorded; the order is unchanged). */
async function verifyAndSettle(deps: Deps, order: Order, via: PaymentPath, failIfUnpaid = via === 'callback'): Promise<SettleResult> {
  if (!order.authority) throw new Error(`order ${order.id} has no authority to verify`);
  let outcome: VerifyOutcome;
  try {
    outcome = await deps.gateway.verify({ authority: order.authority, amountToman: order.amount });
  } catch (error) {
    if (error instanceof GatewayError) throw await gatewayFailure(deps, order, error, 'confirm the payment');
    throw error;
  }
  if (outcome.paid)
    return markPaid(deps, order.id, via, { gatewayCode: outcome.code, refId: outcome.refId, cardPan: outcome.cardPan }, order);
  if (failIfUnpaid) return markFailed(deps, order.id, via, { gatewayCode: outcome.code, note: outcome.message });
  await recordEvent(deps, order.id, 'payment_result', {
    userId: order.userId,
    via,
    result: 'unchanged',
    ignored: false,
    reason: 'not_paid',
    gatewayCode: outcome.code,
    note: outcome.message,
  });
  return { order, changed: false };
}

/**
 * The gateway callback: `authority` and the `Status` query value as received. Returns the order's id and status
 * after verification. Errors: `not_found` (unknown authority: recorded, nothing changes), `gateway_unavailable`.
 */
export async function handleCallback(
  deps: Deps,
  authority: string,
  callbackStatus: string | undefined,
): Promise<{ orderId: number; status: OrderStatus }> {
  const orderId = /^[A-Za-z0-9]{1,64}$/.test(authority) ? await orderIdOfAuthority(deps.db, authority) : undefined;
  if (orderId === undefined) {
    await recordUnmatchedCallback(deps, { authority, callbackStatus });
    throw paymentErrors.unknownAuthority();
  }
  const order = await getOrder(deps, orderId);
  await recordEvent(deps, order.id, 'callback_received', { userId: order.userId, authority, callbackStatus });
  if (!deps.gateway.configured) throw paymentErrors.gatewayNotConfigured();
  const { order: after } = await verifyAndSettle(deps, order, 'callback');
  return { orderId: after.id, status: after.status };
}

/**
 * How long after its gateway step began an order that ended unpaid here (failed, or cancelled by staff) is still
 * looked for in the gateway's paid-but-unverified list, hours: Shaparak returns an unverified payment within about
 * 72 hours (providers.md §1 "unVerified"). The re-check job reads the orders of the same window.
 */
export const RECHECK_WINDOW_HOURS = 72;

/**
 * Whether `order` reached the gateway and is not paid at `nowMs` (the re-check's candidates): pending; or failed or
 * cancelled by staff while its gateway session may still have been open, its gateway step begun within
 * {@link RECHECK_WINDOW_HOURS}. A failed order belongs here because the buyer can still pay on the page left open
 * (a forged or early `Status=NOK` callback, or the abandonment verdict, failed it): if that payment's redirect is
 * lost, only the gateway's list tells. Only such an order needs the gateway's list.
 */
export const unpaidAtGateway = (order: Order, nowMs: number): order is Order & { authority: string } => {
  if (order.provider !== 'gateway' || !order.authority) return false;
  if (order.status === 'pending') return true;
  if (order.status !== 'failed' && order.status !== 'cancelled') return false;
  return (order.gatewayStartedAt ?? order.createdAt) >= nowMs - RECHECK_WINDOW_HOURS * 3_600_000;
};

/** Whether `order` is a pending checkout whose gateway step began {@link ABANDONED_AFTER_MINUTES} ago or more at `nowMs`. */
const abandonedAt = (order: Order, nowMs: number): boolean =>
  order.status === 'pending' && order.gatewayStartedAt !== undefined && nowMs - order.gatewayStartedAt >= ABANDONED_AFTER_MINUTES * 60_000;

/**
 * Whether {@link recheckOrders} has work on `order` at `nowMs` (epoch ms): it reached the gateway and is not paid, or
 * it is a checkout that has expired (checkoutExpiry.ts). With `listed`, the gateway's paid-but-unverified authorities
 * as read for a whole run (the re-check job), an unpaid order counts only when the list names it or it is an
 * abandoned checkout: the others would be left as they are.
 */
export function hasRecheckWork(order: Order, nowMs: number, listed?: ReadonlySet<string>): boolean {
  if (isExpiredCheckout(order, nowMs)) return true;
  if (!unpaidAtGateway(order, nowMs)) return false;
  return listed === undefined || listed.has(order.authority) || abandonedAt(order, nowMs);
}

/**
 * The authorities of the gateway's paid-but-unverified payments (providers.md §1 `unVerified`: the last 100), or
 * undefined when the gateway did not answer (logged; the re-check then fails expired checkouts only).
 */
export async function unverifiedAuthorities(deps: Deps): Promise<Set<string> | undefined> {
  try {
    return new Set((await deps.gateway.unverified()).map((p) => p.authority));
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    logger.warn('payment re-check skipped: the gateway did not list unverified payments', { reason: error.message });
    return undefined;
  }
}

/**
 * Re-checks `userId`'s orders: first fails the checkouts that have expired (checkoutExpiry.ts: never started, or
 * started in the marketplace and never verified; their discount uses come back), then checks the unpaid orders that
 * reached the gateway (pending; failed or cancelled by staff within {@link RECHECK_WINDOW_HOURS}) against the
 * gateway's paid-but-unverified list, and settles those it lists (a failed or cancelled one becomes paid, its
 * discount use taken again); abandoned checkouts (see the module doc) are verified whether listed or not, and fail
 * when unpaid. Gateway trouble is logged and skipped: the status read still answers. `unverified` gives the
 * gateway's list (default: {@link unverifiedAuthorities}, asked only when an order needs it); the re-check job passes
 * one list read once per run. Returns the orders it settled with their status after.
 */
export async function recheckOrders(
  deps: Deps,
  userId: number,
  options: { unverified?: () => Promise<Set<string> | undefined> } = {},
): Promise<Array<{ orderId: number; status: OrderStatus }>> {
  const orders = await ordersOfUser(deps.db, userId);
  const results = await expireCheckouts(deps, orders);
  if (!deps.gateway.configured) return results;
  const now = deps.clock.now();
  const open = orders.filter((order) => unpaidAtGateway(order, now)).slice(0, RECHECK_MAX_ORDERS);
  if (open.length === 0) return results;
  const listed = await (options.unverified ?? (() => unverifiedAuthorities(deps)))();
  if (!listed) return results;
  for (const order of open) {
    const abandoned = abandonedAt(order, now);
    if (!listed.has(order.authority) && !abandoned) continue;
    try {
      const { order: after } = await verifyAndSettle(deps, order, 'recheck', abandoned);
      results.push({ orderId: after.id, status: after.status });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'gateway_unavailable') continue;
      throw error;
    }
  }
  return results;
}
