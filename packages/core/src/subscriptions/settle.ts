/**
 * Settling an order (spec "States and transitions / Order", Events; DESIGN §5): every change of money state is
 * ONE conditional TransactWriteItems, so a retry or a race (two callbacks at once, a callback and a status
 * re-check) can never grant twice.
 *
 * - Paid ({@link markPaid}): the order's `pending|cancelled|failed → paid` update (condition on the status and on
 *   its discount state as read), the discount use taken again if it had been given back (discountUse.ts), the
 *   `payment_result` row, and what granting writes (grant.ts: the subscription, the first real payment, the
 *   commission). A transaction that loses a race is re-read: an order that is no longer payable makes this
 *   attempt a duplicate, recorded as an ignored `payment_result` row (reason `duplicate` or `order_<status>`).
 * - Failed ({@link markFailed}): `pending → failed` with its discount use given back and its row. A paid order
 *   never goes back to failed; a cancelled one stays cancelled (recorded as ignored).
 */
import { getUser } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { countEvent } from '../metrics';
import { countItem } from '../stats';
import { discountReleaseGuard, releaseDiscountItems, retakeDiscountItems } from './discountUse';
import { paymentErrors } from './errors';
import { recordEvent } from './events';
import { grantWrites } from './grant';
import { type Order, type OrderStatus, orderKey } from './order.entity';
import { getOrder } from './orders';
import { eventItem, type PaymentPath } from './paymentEvent.entity';

/** Statuses from which a successful verification still makes the order paid (money taken is always granted). */
const PAYABLE_STATUSES: readonly OrderStatus[] = ['pending', 'cancelled', 'failed'];

/** What the provider said about a payment (public values only). */
export interface PaymentProof {
  gatewayCode?: number;
  refId?: string;
  cardPan?: string;
  /**
   * Marketplace: the digest of the purchase token, the period end it reported (epoch ms; a subscription's paid
   * period, granted until it, period.ts), the HTTP status of its answer and whether the subscription renews itself.
   */
  purchaseTokenDigest?: string;
  validUntil?: number;
  marketplaceStatus?: number;
  autoRenewing?: boolean;
}

/**
 * More for one payment path to write in the paying transaction (the marketplace: the purchase token's binding), and
 * what to do when that transaction lost a race, before the order is re-read (e.g. raise `purchase_token_used` when
 * the token went to another order meanwhile).
 */
export interface SettleExtra {
  items?: TxItem[];
  onLostRace?: () => Promise<void>;
}

export interface SettleResult {
  order: Order;
  /** False when the order was already settled (a duplicate attempt, recorded as ignored). */
  changed: boolean;
}

/** Records the attempt to settle `order` (already settled, or no longer pending) as ignored; changes nothing. */
async function ignored(deps: Deps, order: Order, via: PaymentPath, proof: PaymentProof): Promise<SettleResult> {
  await recordEvent(deps, order.id, 'payment_result', {
    userId: order.userId,
    via,
    result: 'unchanged',
    ignored: true,
    reason: order.status === 'paid' ? 'duplicate' : `order_${order.status}`,
    gatewayCode: proof.gatewayCode,
    refId: proof.refId,
  });
  return { order, changed: false };
}

/** One attempt of {@link markPaid} on `order` as read. */
async function payOnce(deps: Deps, order: Order, via: PaymentPath, proof: PaymentProof, extra: SettleExtra): Promise<SettleResult> {
  if (!PAYABLE_STATUSES.includes(order.status)) return ignored(deps, order, via, proof);
  const user = await getUser(deps.db, order.userId);
  const now = deps.clock.now();
  const granted = user ? grantWrites(deps.db, order, user, now, proof.validUntil) : undefined;
  const commission = granted?.commission;

  const orderSets = ['#s = :paid', 'paidAt = :now', 'paidVia = :via', 'updatedAt = :now'];
  const orderValues: Record<string, unknown> = {
    ':paid': 'paid',
    ':now': now,
    ':via': via,
    ':pending': 'pending',
    ':cancelled': 'cancelled',
    ':failed': 'failed',
  };
  const orderNames: Record<string, string> = { '#s': 'status' };
  const optional = {
    grant: granted?.grant,
    refId: proof.refId,
    cardPan: proof.cardPan,
    commission,
    purchaseTokenDigest: proof.purchaseTokenDigest,
    validUntil: proof.validUntil,
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value === undefined) continue;
    orderSets.push(`#${name} = :${name}`);
    orderNames[`#${name}`] = name;
    orderValues[`:${name}`] = value;
  }

  const guard = discountReleaseGuard(order, 'retake');
  const items: TxItem[] = [
    update(deps.db, orderKey(order.id), `SET ${orderSets.join(', ')}${guard.remove}`, {
      condition: `#s IN (:pending, :cancelled, :failed) AND ${guard.condition}`,
      names: orderNames,
      values: { ...orderValues, ...guard.values },
    }),
    ...retakeDiscountItems(deps.db, order),
    eventItem(deps.db, order.id, now, 'payment_result', {
      userId: order.userId,
      via,
      result: 'paid',
      ignored: false,
      ...(user ? {} : { reason: 'account_deleted', note: 'The buyer deleted the account; nothing was granted' }),
      gatewayCode: proof.gatewayCode,
      refId: proof.refId,
      validUntil: proof.validUntil,
      marketplaceStatus: proof.marketplaceStatus,
      autoRenewing: proof.autoRenewing,
      amount: order.amount,
      commission: commission?.amount,
    }),
    ...(granted?.items ?? []),
    ...(extra.items ?? []),
    countItem(deps.db, now, { paidOrders: 1, revenue: order.amount }),
  ];
  await transact(deps.db, items);
  countEvent('Purchases', { provider: order.amount === 0 ? 'free' : order.provider });
  const { discountReleased: _released, ...unreleased } = order;
  const settled: Order = { ...unreleased, status: 'paid', paidAt: now, paidVia: via, updatedAt: now };
  for (const [name, value] of Object.entries(optional)) if (value !== undefined) Object.assign(settled, { [name]: value });
  return { order: settled, changed: true };
}

/**
 * Marks order `orderId` paid through `via` and grants it, as one transaction (see the module doc). `known` is the
 * order as the caller just read it, used for the first attempt (the transaction's conditions guard a stale copy);
 * `extra` adds a path's own items to that transaction (see {@link SettleExtra}).
 * When the buyer deleted their account meanwhile, the order is still marked paid (payment records are kept, spec
 * Endpoints `POST /api/user/delete`) and nothing is granted. Returns the order as it is afterwards. Errors:
 * `not_found` (order), `database_busy` after 8 lost races in a row.
 */
export const markPaid = (
  deps: Deps,
  orderId: number,
  via: PaymentPath,
  proof: PaymentProof = {},
  known?: Order,
  extra: SettleExtra = {},
): Promise<SettleResult> =>
  retryOptimistic(
    async (n) => payOnce(deps, n === 0 && known ? known : await getOrder(deps, orderId), via, proof, extra),
    // Lost a race: the next attempt re-reads (a duplicate, or the subscription changed under us).
    async () => {
      await extra.onLostRace?.();
      return undefined;
    },
    { busy: paymentErrors.busy },
  );

/**
 * What an expiring checkout's transaction holds (checkoutExpiry.ts): `unstarted`, still no gateway authority and no
 * marketplace start; `marketplace_start`, no start again since its last start at `lastStartAt` (epoch ms, the
 * order's `updatedAt` as read).
 */
export type ExpiryGuard = { kind: 'unstarted' } | { kind: 'marketplace_start'; lastStartAt: number };

/** The condition `expiry` adds to the order's update (with its values); none without one. */
function expiryCondition(expiry: ExpiryGuard | undefined): { condition: string; values: Record<string, unknown> } {
  if (!expiry) return { condition: '', values: {} };
  if (expiry.kind === 'unstarted') {
    return { condition: ' AND attribute_not_exists(authority) AND attribute_not_exists(marketplaceStartedAt)', values: {} };
  }
  return { condition: ' AND updatedAt = :lastStartAt', values: { ':lastStartAt': expiry.lastStartAt } };
}

/**
 * Marks a pending order failed (the gateway's verification proved it unpaid), giving its discount use back, with
 * its `payment_result` row, as one transaction. An order that is not pending (or stops being so meanwhile) is left
 * as it is and the attempt is recorded as ignored. A transaction cancelled while the order is still pending (a
 * TransactionConflict on the discount code's counters during a campaign) is tried again, so the callback still
 * answers `failed`; `database_busy` after too many.
 *
 * With `expiry` (checkoutExpiry.ts: a checkout that has expired), the transaction also holds the order as it was
 * when it expired ({@link ExpiryGuard}), the row's reason is `expired`, and an order that started (or started again)
 * meanwhile is left pending with nothing recorded. Errors: `not_found`.
 */
export const markFailed = (
  deps: Deps,
  orderId: number,
  via: PaymentPath,
  proof: PaymentProof & { note?: string },
  { expiry }: { expiry?: ExpiryGuard } = {},
): Promise<SettleResult> => {
  let current: Order | undefined;
  return retryOptimistic(
    async () => failOnce(deps, current ?? (await getOrder(deps, orderId)), via, proof, expiry),
    // Lost a race: read the order again and decide; the next attempt, if any, uses that read.
    async () => {
      current = await getOrder(deps, orderId);
      // Its pay link or in-app purchase started (or started again) meanwhile: not expired, and no attempt to record.
      if (expiry && current.status === 'pending') return { result: { order: current, changed: false } };
      // Still pending: a conflicting write (the discount code's counters, say); try again.
      if (current.status === 'pending') return undefined;
      return { result: await ignored(deps, current, via, proof) };
    },
    { busy: paymentErrors.busy },
  );
};

/** One attempt of {@link markFailed} on `order` as read. Errors: a failed condition when it changed (the caller decides). */
async function failOnce(
  deps: Deps,
  order: Order,
  via: PaymentPath,
  proof: PaymentProof & { note?: string },
  expiry: ExpiryGuard | undefined,
): Promise<SettleResult> {
  if (order.status !== 'pending') return ignored(deps, order, via, proof);
  const now = deps.clock.now();
  const guard = discountReleaseGuard(order, 'release');
  const held = expiryCondition(expiry);
  await transact(deps.db, [
    update(deps.db, orderKey(order.id), `SET #s = :failed, failedAt = :now, updatedAt = :now${guard.set}`, {
      condition: `#s = :pending AND ${guard.condition}${held.condition}`,
      names: { '#s': 'status' },
      values: { ':failed': 'failed', ':pending': 'pending', ':now': now, ...guard.values, ...held.values },
    }),
    ...releaseDiscountItems(deps.db, order, now),
    eventItem(deps.db, order.id, now, 'payment_result', {
      userId: order.userId,
      via,
      result: 'failed',
      ignored: false,
      reason: expiry ? 'expired' : 'not_paid',
      gatewayCode: proof.gatewayCode,
      note: proof.note,
    }),
  ]);
  return {
    order: { ...order, status: 'failed', failedAt: now, updatedAt: now, ...(order.discountCode ? { discountReleased: true } : {}) },
    changed: true,
  };
}
