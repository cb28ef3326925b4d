/**
 * Checkouts that never started (docs/decisions.md "Discount codes", "Re-check"): an order whose pay link was never
 * opened (a gateway order without an authority) or whose in-app purchase was never started (a marketplace order
 * without `marketplaceStartedAt`) can never be paid as it stands, yet, left `pending`, it would keep the discount
 * use it took forever, and a code of limited uses would run out on carts nobody paid. So once it is
 * {@link UNSTARTED_EXPIRY_MINUTES} minutes old it expires: `pending → failed`, its discount use given back, a
 * `payment_result` row with reason `expired` (settle.ts `markFailed`), one transaction whose condition also holds the
 * order unstarted, so an order whose pay link or purchase starts meanwhile is left pending and nothing is recorded.
 *
 * A free order (a 100 % code) never expires: its pay link completes it (checkout.ts `startPayment`). Nothing is lost
 * for the buyer: buying again makes a new order (and takes the code again while uses are left).
 *
 * Run by the re-check (checkout.ts `recheckOrders`): the buyer's status read and the payment re-check job.
 */
import type { Deps } from '../deps';
import type { Order, OrderStatus } from './order.entity';
import { markFailed } from './settle';

/**
 * A checkout that has not started this long after its creation has expired (ours: the app opens the pay link, or
 * starts the in-app purchase, right after the purchase; the same hour the re-check gives a gateway step).
 */
export const UNSTARTED_EXPIRY_MINUTES = 60;

/** At most this many expired checkouts of one buyer are failed per re-check (newest first; the next run does more). */
const EXPIRE_MAX_ORDERS = 5;

/**
 * Whether `order` is a checkout that never started and has expired at `nowMs` (epoch ms): pending, not free, no
 * gateway authority, no marketplace start, created {@link UNSTARTED_EXPIRY_MINUTES} minutes ago or more.
 */
export const isExpiredUnstarted = (order: Order, nowMs: number): boolean =>
  order.status === 'pending' &&
  order.amount > 0 &&
  order.authority === undefined &&
  order.marketplaceStartedAt === undefined &&
  nowMs - order.createdAt >= UNSTARTED_EXPIRY_MINUTES * 60_000;

/**
 * Fails the expired unstarted checkouts among `orders` (one buyer's, newest first), giving their discount uses back.
 * Returns those it failed, with their status after. Errors: what a DynamoDB transaction raises other than a failed
 * condition (an order that started or settled meanwhile is skipped).
 */
export async function expireUnstarted(deps: Deps, orders: readonly Order[]): Promise<Array<{ orderId: number; status: OrderStatus }>> {
  const now = deps.clock.now();
  const expired = orders.filter((order) => isExpiredUnstarted(order, now)).slice(0, EXPIRE_MAX_ORDERS);
  const results: Array<{ orderId: number; status: OrderStatus }> = [];
  for (const order of expired) {
    const { order: after, changed } = await markFailed(
      deps,
      order.id,
      'recheck',
      { note: `Not started within ${UNSTARTED_EXPIRY_MINUTES} minutes of the purchase` },
      { unstarted: true },
    );
    if (changed) results.push({ orderId: after.id, status: after.status });
  }
  return results;
}
