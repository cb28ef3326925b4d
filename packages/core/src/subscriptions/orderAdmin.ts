/**
 * Orders, payment events and a learner's orders as the staff see them (DESIGN §9 orders, payment events, users
 * show; spec "Order": status read-only in admin; "Payment event": admin shows it read-only). Times are ISO,
 * money toman. Each view names the buyer's publicId (one BatchGetItem per page), and never a purchase token
 * (payment events hold none, paymentEvent.entity.ts). One order's page also shows its marketplace purchase (issue 23:
 * money in one place): the period, the token's digest prefix, the renewal state and the marketplace's last answer.
 */
import { canonicalPublicId, getUserForStaff, getUsers, type StaffUserView, userIdByPublicId } from '../auth';
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import type { Deps } from '../deps';
import { invoiceNumber } from './invoices';
import { type MarketplacePurchase, readMarketplacePurchase } from './marketplacePurchase.entity';
import { type Order, type OrderFilter, ordersPage, readOrder } from './order.entity';
import { getOrder } from './orders';
import { type EventFilter, eventsPage, type PaymentEvent } from './paymentEvent.entity';
import { refundOrder, refundPreview } from './refund';
import { cancelOrder, listOrders } from './staffActions';

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** An order for staff: everything stored (no secret is stored on an order), times ISO, its invoice number and buyer's publicId. */
export function staffOrderView(deps: Pick<Deps, 'settings'>, order: Order, userPublicId: string | null) {
  const { discountCode, grant, ...rest } = order;
  return {
    ...rest,
    userPublicId,
    discountCode: discountCode ?? null,
    invoiceNumber: order.status === 'paid' || order.status === 'refunded' ? invoiceNumber(deps.settings.invoicePrefix, order.id) : null,
    createdAt: iso(order.createdAt),
    updatedAt: iso(order.updatedAt),
    gatewayStartedAt: iso(order.gatewayStartedAt),
    paidAt: iso(order.paidAt),
    failedAt: iso(order.failedAt),
    cancelledAt: iso(order.cancelledAt),
    refundedAt: iso(order.refundedAt),
    grant: grant ? { days: grant.days, from: iso(grant.fromMs), to: iso(grant.toMs) } : null,
  };
}
export type StaffOrderView = ReturnType<typeof staffOrderView>;

/** Hex characters of the token digest staff see: enough to tell purchases apart and match a marketplace report. */
export const TOKEN_DIGEST_PREFIX_LENGTH = 12;

/** The marketplace purchase that paid an order, as staff see it (times ISO; never the token). */
export function staffPurchaseView(purchase: MarketplacePurchase) {
  const answer = purchase.lastAnswer;
  return {
    tokenDigestPrefix: purchase.tokenDigest.slice(0, TOKEN_DIGEST_PREFIX_LENGTH),
    productType: purchase.productType,
    firstOrderId: purchase.orderId,
    lastOrderId: purchase.lastOrderId ?? purchase.orderId,
    periods: purchase.periods ?? 1,
    validUntil: iso(purchase.validUntil),
    autoRenewing: purchase.autoRenewing ?? null,
    renewalState: purchase.renewalState ?? null,
    refundWatch: purchase.refundWatch ?? null,
    nextCheckAt: iso(purchase.renewalState === 'active' || purchase.refundWatch === 'active' ? purchase.nextCheckAt : undefined),
    checkedAt: iso(purchase.checkedAt),
    endedAt: iso(purchase.endedAt),
    endedReason: purchase.endedReason ?? null,
    lastAnswer: answer
      ? {
          at: iso(answer.at),
          outcome: answer.outcome,
          httpStatus: answer.httpStatus,
          validUntil: iso(answer.validUntil),
          autoRenewing: answer.autoRenewing ?? null,
        }
      : null,
  };
}

/** `view` of `order` with its marketplace purchase, when a marketplace purchase paid it. */
async function withPurchase(deps: Pick<Deps, 'db'>, order: Order, view: StaffOrderView) {
  const purchase = order.purchaseTokenDigest ? await readMarketplacePurchase(deps.db, order.purchaseTokenDigest) : undefined;
  return purchase ? { ...view, marketplace: staffPurchaseView(purchase) } : view;
}

/** `orders` with their buyers' publicIds (one BatchGetItem). */
async function withPublicIds(deps: Pick<Deps, 'db' | 'settings'>, orders: Order[]): Promise<StaffOrderView[]> {
  const users = await getUsers(
    deps.db,
    orders.map((o) => o.userId),
  );
  const publicIds = new Map(users.map((u) => [u.id, u.publicId]));
  return orders.map((o) => staffOrderView(deps, o, publicIds.get(o.userId) ?? null));
}

/** What staff filter orders by: the stored fields, the buyer by id or public id, and a search. */
export type StaffOrderQuery = OrderFilter & {
  userId?: number;
  /** The buyer's public id as staff see it (`User123456`, any case). */
  userPublicId?: string;
  /** An order id, an invoice number (`<prefix>-000123`) or a buyer's public id, exactly. */
  q?: string;
  limit: number;
  cursor?: string;
};

/** The one order `q` names by id or invoice number (undefined: it names none; null: it is not such a search). */
async function orderNamed(deps: Pick<Deps, 'db' | 'settings'>, q: string): Promise<Order | undefined | null> {
  const invoice = new RegExp(`^${deps.settings.invoicePrefix.replace(/[^A-Za-z0-9]/g, '\\$&')}-([0-9]{1,12})$`, 'i').exec(q);
  const id = /^[0-9]{1,12}$/.test(q) ? Number(q) : invoice ? Number(invoice[1]) : undefined;
  if (id === undefined) return null;
  const order = id > 0 ? await readOrder(deps.db, id) : undefined;
  // An invoice number exists only once the order is paid (refunded ones keep it).
  return order && (!invoice || order.status === 'paid' || order.status === 'refunded') ? order : undefined;
}

/**
 * `GET /api/admin/orders`: newest first (`order: 'asc'`: oldest first), filtered by status, provider, creation time
 * and buyer (id or public id); `q` finds one order by id or invoice number, or a buyer's orders by public id, and
 * anything else finds none. Every filter applies together: the buyer filters given (`userId`, `userPublicId`, a
 * public id in `q`) must name the same learner, and an order `q` names must pass the others. Errors:
 * `validation_error` (cursor).
 */
export async function listOrdersForStaff(deps: Pick<Deps, 'db' | 'settings'>, query: StaffOrderQuery): Promise<Page<StaffOrderView>> {
  const { q, userPublicId, ...filter } = query;
  const search = q?.trim() || undefined;
  const searched = search === undefined ? undefined : canonicalPublicId(search);
  for (const typed of [userPublicId, searched]) {
    if (typed === undefined) continue;
    const publicId = canonicalPublicId(typed.trim());
    const buyer = publicId ? await userIdByPublicId(deps.db, publicId) : undefined;
    if (buyer === undefined || (filter.userId !== undefined && filter.userId !== buyer)) return { items: [] };
    filter.userId = buyer;
  }
  if (search !== undefined && searched === undefined) {
    const named = query.cursor ? undefined : await orderNamed(deps, search);
    const passes = (o: Order) =>
      (filter.status === undefined || o.status === filter.status) &&
      (filter.provider === undefined || o.provider === filter.provider) &&
      (filter.userId === undefined || o.userId === filter.userId) &&
      o.createdAt >= (filter.from ?? 0) &&
      o.createdAt <= (filter.to ?? Number.MAX_SAFE_INTEGER);
    return { items: named && passes(named) ? await withPublicIds(deps, [named]) : [] };
  }
  const page = await listOrders(deps, filter);
  return { ...page, items: await withPublicIds(deps, page.items) };
}

/** Order `orderId`, with its marketplace purchase. Errors: `not_found`. */
export async function orderForStaff(deps: Pick<Deps, 'db' | 'settings'>, orderId: number) {
  const order = await getOrder(deps, orderId);
  const [view] = await withPublicIds(deps, [order]);
  return withPurchase(deps, order, view as StaffOrderView);
}

/** Staff member `actor` cancels pending order `orderId` (staffActions.ts); answers the order as the staff see it. */
export async function cancelOrderForStaff(deps: Deps, orderId: number, actor: string): Promise<StaffOrderView> {
  const [view] = await withPublicIds(deps, [await cancelOrder(deps, orderId, actor)]);
  return view as StaffOrderView;
}

/** Staff member `actor` refunds paid order `orderId` (refund.ts); answers the order with what was taken back. */
export async function refundOrderForStaff(deps: Deps, orderId: number, actor: string) {
  const result = await refundOrder(deps, orderId, actor);
  const [view] = await withPublicIds(deps, [result.order]);
  const withMarketplace = await withPurchase(deps, result.order, view as StaffOrderView);
  return { ...withMarketplace, daysTakenBack: result.daysTakenBack, commissionReversed: result.commissionReversed };
}

/**
 * A learner with their latest 20 orders (`GET /api/admin/users/{id}`), or with `orders: null` when `withOrders` is
 * false (the staff member may not view orders: `view_user` alone shows no payments). Errors: `not_found`.
 */
export async function userWithOrders(
  deps: Deps,
  userId: number,
  withOrders = true,
): Promise<StaffUserView & { orders: StaffOrderView[] | null }> {
  const user = await getUserForStaff(deps, userId);
  if (!withOrders) return { ...user, orders: null };
  const orders = await ordersPage(deps.db, { userId, limit: 20 });
  return { ...user, orders: orders.items.map((o) => staffOrderView(deps, o, user.publicId)) };
}

/**
 * `GET /api/admin/orders/{id}/refund`, the refund confirmation page's data: the amount paid, the days and the
 * commission the refund will take back, and the buyer's subscription end before and after. Errors: `not_found`,
 * `order_status_conflict` (not paid).
 */
export async function refundConfirmation(deps: Deps, orderId: number) {
  const { order, userPublicId, referrerPublicId, effects } = await refundPreview(deps, orderId);
  return {
    orderId: order.id,
    userId: order.userId,
    userPublicId,
    planTitle: order.planTitle,
    amount: order.amount,
    days: effects.days,
    // Both null when the buyer has no subscription to change (a deleted account).
    subscriptionExpiresAt: {
      before: iso(effects.subscription?.before.expiresAt),
      after: iso(effects.subscription?.after.expiresAt),
    },
    commission: effects.commission
      ? { referrerId: effects.commission.referrerId, referrerPublicId, amount: effects.commission.amount }
      : null,
  };
}

/** A payment event for staff (times ISO; the row's whitelisted fields only). */
export const staffEventView = ({ at, ...event }: PaymentEvent) => ({ ...event, id: event.id ?? null, at: iso(at) });

/**
 * `GET /api/admin/payment-events` and `GET /api/admin/orders/{id}/events`: newest first across orders (gsi1), or
 * of one order, optionally of one kind. Errors: `validation_error` (cursor).
 */
export async function listPaymentEvents(
  deps: Pick<Deps, 'db'>,
  query: EventFilter & { limit: number; cursor?: string },
): Promise<Page<ReturnType<typeof staffEventView>>> {
  const page = await fillPage((limit, cursor) => eventsPage(deps.db, { ...query, limit, cursor }), query);
  return { ...page, items: page.items.map(staffEventView) };
}
