/**
 * Checkouts that expire (docs/decisions.md "Discount codes", "A checkout that never started expires", "A marketplace
 * checkout that was never verified expires"). A pending order keeps the discount use it took, and a code of limited
 * uses would run out on carts nobody paid, so two kinds of pending order that nobody is paying expire:
 *
 * - **never started**: a gateway order whose pay link was never opened (no authority), or a marketplace order whose
 *   in-app purchase was never started (no `marketplaceStartedAt`), {@link UNSTARTED_EXPIRY_MINUTES} minutes after its
 *   creation. It can never be paid as it stands. The transaction holds it unstarted, so an order whose pay link or
 *   purchase starts meanwhile is left pending and nothing is recorded.
 * - **started in the marketplace, never verified**: {@link MARKETPLACE_START_EXPIRY_HOURS} hours after its last start
 *   (`updatedAt`: a start again sets it; nothing else writes a started pending order). Bazaar hands the app the
 *   purchase at once and a dynamic price signed at the start lasts 10 minutes (marketplaceStart.ts); an app that paid
 *   but could not verify sends the purchase again at its next start (Poolakey's purchased products). Nobody asks the
 *   marketplace here: it cannot be asked about a purchase without its token, which only the app holds. So a
 *   verification that comes after the expiry still pays the order (settle.ts: `failed → paid`, the discount use
 *   taken again whatever the limit, because the money is in). The transaction holds the last start as read, so a
 *   start again meanwhile leaves it pending and records nothing.
 *
 * Either way: `pending → failed`, its discount use given back, a `payment_result` row with `via: recheck` and reason
 * `expired` (settle.ts `markFailed`), as one conditional transaction. A free order (a 100 % code) never expires: its
 * pay link completes it (checkout.ts `startPayment`). Nothing is lost for the buyer: buying again makes a new order
 * (and takes the code again while uses are left).
 *
 * Run by the re-check (checkout.ts `recheckOrders`): the buyer's status read and the payment re-check job.
 */
import type { Deps } from '../deps';
import type { Order, OrderStatus } from './order.entity';
import { type ExpiryGuard, markFailed } from './settle';

/**
 * A checkout that has not started this long after its creation has expired (ours: the app opens the pay link, or
 * starts the in-app purchase, right after the purchase; the same hour the re-check gives a gateway step).
 */
export const UNSTARTED_EXPIRY_MINUTES = 60;

/**
 * A marketplace checkout not verified this long after its last start has expired (ours: a day leaves an app that
 * paid but could not verify its next start to send the purchase, and still gives an abandoned cart's use back the
 * same day).
 */
export const MARKETPLACE_START_EXPIRY_HOURS = 24;

/** At most this many expired checkouts of one buyer are failed per re-check (newest first; the next run does more). */
const EXPIRE_MAX_ORDERS = 5;

/** Pending and not free: an order that could still be paid and may hold a discount use. */
const payablePending = (order: Order): boolean => order.status === 'pending' && order.amount > 0;

/**
 * Whether `order` is a checkout that never started and has expired at `nowMs` (epoch ms): pending, not free, no
 * gateway authority, no marketplace start, created {@link UNSTARTED_EXPIRY_MINUTES} minutes ago or more.
 */
export const isExpiredUnstarted = (order: Order, nowMs: number): boolean =>
  payablePending(order) &&
  order.authority === undefined &&
  order.marketplaceStartedAt === undefined &&
  nowMs - order.createdAt >= UNSTARTED_EXPIRY_MINUTES * 60_000;

/**
 * Whether `order` is a marketplace checkout that was started but never verified and has expired at `nowMs` (epoch
 * ms): pending, not free, started, last started (`updatedAt`) {@link MARKETPLACE_START_EXPIRY_HOURS} hours ago or more.
 */
export const isExpiredMarketplaceStart = (order: Order, nowMs: number): boolean =>
  payablePending(order) &&
  order.provider === 'marketplace' &&
  order.marketplaceStartedAt !== undefined &&
  nowMs - order.updatedAt >= MARKETPLACE_START_EXPIRY_HOURS * 3_600_000;

/** Whether `order` has expired at `nowMs` either way (see the module doc). */
export const isExpiredCheckout = (order: Order, nowMs: number): boolean =>
  isExpiredUnstarted(order, nowMs) || isExpiredMarketplaceStart(order, nowMs);

/** What holds `order`'s expiry in its transaction, and the note its row carries. */
function expiryOf(order: Order): { guard: ExpiryGuard; note: string } {
  if (order.marketplaceStartedAt === undefined) {
    return { guard: { kind: 'unstarted' }, note: `Not started within ${UNSTARTED_EXPIRY_MINUTES} minutes of the purchase` };
  }
  return {
    guard: { kind: 'marketplace_start', lastStartAt: order.updatedAt },
    note: `Not verified within ${MARKETPLACE_START_EXPIRY_HOURS} hours of its last marketplace start`,
  };
}

/**
 * Fails the expired checkouts among `orders` (one buyer's, newest first), giving their discount uses back. Returns
 * those it failed, with their status after. Errors: what a DynamoDB transaction raises other than a failed condition
 * (an order that started, started again or settled meanwhile is skipped).
 */
export async function expireCheckouts(deps: Deps, orders: readonly Order[]): Promise<Array<{ orderId: number; status: OrderStatus }>> {
  const now = deps.clock.now();
  const expired = orders.filter((order) => isExpiredCheckout(order, now)).slice(0, EXPIRE_MAX_ORDERS);
  const results: Array<{ orderId: number; status: OrderStatus }> = [];
  for (const order of expired) {
    const { guard, note } = expiryOf(order);
    const { order: after, changed } = await markFailed(deps, order.id, 'recheck', { note }, { expiry: guard });
    if (changed) results.push({ orderId: after.id, status: after.status });
  }
  return results;
}
