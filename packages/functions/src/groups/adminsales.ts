/**
 * Endpoint group `adminsales`: learners, orders and payment events for the staff (DESIGN §9; docs/admin-api.md).
 * Orders are read with `view_order`; cancel and refund need `change_order` (spec Authentication 6). The refund
 * is two steps: `GET …/refund` is the confirmation page's data (days and commission it takes back), `POST
 * …/refund { confirm: true }` does it.
 */
import { lazySchema } from '@mathisland/core';
import { hasPermission } from '@mathisland/core/admin';
import { listUsers } from '@mathisland/core/auth';
import { parentForStaff } from '@mathisland/core/parents';
import { learningForStaff } from '@mathisland/core/progress';
import {
  cancelOrderForStaff,
  listOrdersForStaff,
  listPaymentEvents,
  orderForStaff,
  PaymentEventKind,
  Provider,
  paymentErrors,
  refundConfirmation,
  refundOrderForStaff,
  userWithOrders,
} from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { adminsalesRoutes } from '../../../../infra/routes/adminsales';
import { listWithRange, usersFilters } from '../lib/adminLists';
import { listAnswer, listQuery } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { eventsFilters, ordersFilters } from '../lib/orderLists';
import { json } from '../lib/responses';
import { type AdminInput, route } from '../lib/route';
import { adminPage, Day, Id, IsoTime, OrderStatus, responseShape, Toman } from '../lib/shapes';
import { StaffMarketplacePurchase } from '../lib/staffMarketplacePurchase';

const UsersQuery = listQuery(usersFilters);
const OrdersQuery = listWithRange(ordersFilters);
const EventsQuery = listWithRange(eventsFilters);
const OrderEventsQuery = listQuery(() => ({ kind: PaymentEventKind.optional() }));
const NoQuery = z.strictObject({});
const Refund = lazySchema(() => z.union([z.undefined(), z.strictObject({ confirm: z.boolean() })]));

type Input = AdminInput<undefined, unknown>;

const count = z.number().int().min(0);
const time = IsoTime.nullable();
/** An order for staff: everything stored (no secret is), times ISO but the two marketplace ones (epoch ms). */
const StaffOrder = responseShape(() =>
  z
    .object({
      id: Id,
      userId: Id,
      userPublicId: z.string().nullable(),
      planId: z.number().int(),
      planTitle: z.string(),
      durationDays: count,
      aiDailyQuota: count,
      listPrice: Toman,
      discountCode: z.string().nullable(),
      discountPercent: z.number().int().optional(),
      discountReleased: z.boolean().optional(),
      discount: Toman,
      amount: Toman,
      status: OrderStatus,
      provider: Provider,
      idempotencyKey: z.string(),
      invoiceNumber: z.string().nullable(),
      createdAt: time,
      updatedAt: time,
      authority: z.string().optional(),
      gatewayStartedAt: time,
      paidAt: time,
      paidVia: z.enum(['callback', 'recheck', 'discount', 'marketplace', 'marketplace_renewal']).optional(),
      refId: z.string().optional(),
      cardPan: z.string().optional().meta({ description: 'Masked, as the gateway reports it' }),
      failedAt: time,
      cancelledAt: time,
      cancelledBy: z.string().optional(),
      refundedAt: time,
      refundedBy: z.string().optional(),
      endedVia: z.literal('marketplace').optional().meta({ description: 'The marketplace refunded or cancelled it (no staff member did)' }),
      grant: z.object({ days: z.number().int(), from: time, to: time }).nullable(),
      commission: z.object({ referrerId: Id, amount: Toman }).optional(),
      marketplaceSku: z.string().optional(),
      marketplaceProductType: z.enum(['subscription', 'inapp']).optional(),
      developerPayload: z.string().optional(),
      marketplaceStartedAt: z.number().int().optional().meta({ description: 'Epoch ms' }),
      purchaseTokenDigest: z.string().optional().meta({ description: 'SHA-256 (hex) of the purchase token' }),
      validUntil: z.number().int().optional().meta({ description: 'Epoch ms: end of the marketplace period this order paid' }),
      renewalOf: Id.optional(),
      marketplace: StaffMarketplacePurchase.optional().meta({
        description: 'One order’s page only: the marketplace purchase that paid it',
      }),
    })
    .meta({ id: 'StaffOrder' }),
);
const StaffUser = responseShape(() =>
  z.object({
    id: Id,
    publicId: z.string(),
    phone: z.string(),
    displayName: z.string().nullable(),
    gradeId: Id.meta({ description: 'The learner’s grade, as their profile and map name it: the chosen one, else the default grade (4)' }),
    xp: count,
    stars: count,
    hearts: count,
    streakCurrent: count,
    subscription: z.object({ planTitle: z.string(), expiresAt: time, active: z.boolean() }).nullable(),
    createdAt: time,
    lastLoginAt: time,
  }),
);
const PaymentEvent = responseShape(() =>
  z
    .looseObject({ id: z.string(), kind: PaymentEventKind, orderId: Id, userId: Id, at: IsoTime })
    .meta({ id: 'PaymentEvent', description: 'An audit row; further fields depend on its kind (amount, result, refId, actor, ...)' }),
);
const RefundPreview = responseShape(() =>
  z.object({
    orderId: Id,
    userId: Id,
    userPublicId: z.string().nullable(),
    planTitle: z.string(),
    amount: Toman,
    days: count.meta({ description: 'Subscription days the refund takes back' }),
    subscriptionExpiresAt: z.object({ before: time, after: time }),
    commission: z.object({ referrerId: Id, referrerPublicId: z.string().nullable(), amount: Toman }).nullable(),
  }),
);
const StaffStreak = responseShape(() =>
  z.object({
    current: count,
    longest: count,
    lastDay: Day.nullable().meta({ description: 'Last Tehran day that counted or a freeze covered' }),
    freezes: count.meta({ description: 'Streak freezes held now' }),
    freezesMax: count,
    freezesUsed: count.meta({ description: 'Freezes used in all' }),
  }),
);
const StaffReview = responseShape(() =>
  z.object({
    inReview: count.meta({ description: 'Questions in the mistakes review' }),
    due: count.meta({ description: 'Due today or earlier' }),
    mastered: count.meta({ description: 'Mastered (left the review) in all' }),
  }),
);
const StaffParent = responseShape(() =>
  z
    .object({
      status: z.enum(['none', 'active', 'stopped']),
      phone: z.string().nullable().meta({ description: 'The confirmed number, masked' }),
      pendingPhone: z.string().nullable().meta({ description: 'A number waiting for its code, masked' }),
      verifiedAt: time,
      stoppedAt: time,
      stoppedBy: z.enum(['parent']).nullable(),
      reportsSent: count,
      lastReport: z
        .object({ week: Day, at: IsoTime, status: z.enum(['sent', 'uncertain', 'failed']), providerStatus: z.number().int().nullable() })
        .nullable(),
      nextReportAt: time,
    })
    .meta({ description: 'The parent’s weekly SMS report (DESIGN §13)' }),
);
const orderNotFound = { not_found: 'No such order.' };
const orderState = { ...orderNotFound, order_status_conflict: 'The order is not in a state this action applies to.' };

const users = async ({ deps, query }: AdminInput<undefined, z.infer<typeof UsersQuery>>) => listAnswer(await listUsers(deps, query));
/**
 * The learner's page: the learner with their latest orders (only for a staff member who may view orders), streak
 * freezes, mistakes review and parent report.
 */
async function user({ deps, id, staff }: Input) {
  const [view, learning, parent] = await Promise.all([
    userWithOrders(deps, id, hasPermission(staff, 'view_order')),
    learningForStaff(deps, id),
    parentForStaff(deps, id),
  ]);
  return { ...view, ...learning, parent };
}
const orders = async ({ deps, query }: AdminInput<undefined, z.infer<typeof OrdersQuery>>) =>
  listAnswer(await listOrdersForStaff(deps, query));
const order = async ({ deps, id }: Input) => orderForStaff(deps, id);

async function orderEvents({ deps, id, query }: AdminInput<undefined, z.infer<typeof OrderEventsQuery>>) {
  await orderForStaff(deps, id); // 404 for an unknown order
  return listAnswer(await listPaymentEvents(deps, { ...query, orderId: id }));
}

const paymentEvents = async ({ deps, query }: AdminInput<undefined, z.infer<typeof EventsQuery>>) =>
  listAnswer(await listPaymentEvents(deps, query));

const cancel = async ({ deps, id, staff }: Input) => cancelOrderForStaff(deps, id, staff.username);
const refundPreview = async ({ deps, id }: Input) => refundConfirmation(deps, id);

async function refund({ deps, id, staff, body }: AdminInput<z.infer<typeof Refund>, unknown>) {
  if (body?.confirm !== true) throw paymentErrors.refundNotConfirmed();
  return refundOrderForStaff(deps, id, staff.username);
}

export const { handler, createHandler, routes } = defineGroup(adminsalesRoutes, {
  'GET /api/admin/users': route.admin({ permission: 'view_user', query: UsersQuery, responses: { 200: adminPage(StaffUser) }, run: users }),
  'GET /api/admin/users/{id}': route.admin({
    permission: 'view_user',
    query: NoQuery,
    description: 'With the streak and its freezes, the mistakes review’s counts and the parent’s report (number masked) (DESIGN §13).',
    responses: {
      200: responseShape(() =>
        StaffUser.unwrap().extend({
          orders: z
            .array(StaffOrder)
            .nullable()
            .meta({ description: 'The latest 20 orders; null for a staff member without `view_order` (payments are that permission’s)' }),
          streak: StaffStreak,
          review: StaffReview,
          parent: StaffParent,
        }),
      ),
    },
    errors: { not_found: 'No such learner.' },
    run: user,
  }),
  'GET /api/admin/orders': route.admin({
    permission: 'view_order',
    query: OrdersQuery,
    responses: { 200: adminPage(StaffOrder) },
    run: orders,
  }),
  'GET /api/admin/orders/{id}': route.admin({
    permission: 'view_order',
    query: NoQuery,
    responses: { 200: StaffOrder },
    errors: orderNotFound,
    run: order,
  }),
  'GET /api/admin/orders/{id}/events': route.admin({
    permission: 'view_order',
    query: OrderEventsQuery,
    responses: { 200: adminPage(PaymentEvent) },
    errors: orderNotFound,
    run: orderEvents,
  }),
  'POST /api/admin/orders/{id}/cancel': route.admin({
    permission: 'change_order',
    description: 'A pending order only.',
    responses: { 200: json(StaffOrder, 'The cancelled order') },
    errors: { ...orderState, already_paid: 'The order is paid (refund it instead).' },
    run: cancel,
  }),
  'GET /api/admin/orders/{id}/refund': route.admin({
    permission: 'view_order',
    query: NoQuery,
    description: 'The refund confirmation page’s data; a paid order only.',
    responses: { 200: RefundPreview },
    errors: orderState,
    run: refundPreview,
  }),
  'POST /api/admin/orders/{id}/refund': route.admin({
    permission: 'change_order',
    body: Refund,
    description:
      'Needs `{ confirm: true }` (otherwise 400 `validation_error`): takes the days back and undoes the commission; for the current period of a marketplace subscription, ends it now (its renewals stop).',
    responses: {
      200: json(
        responseShape(() => StaffOrder.unwrap().extend({ daysTakenBack: count, commissionReversed: Toman })),
        'The refunded order',
      ),
    },
    errors: orderState,
    run: refund,
  }),
  'GET /api/admin/payment-events': route.admin({
    permission: 'view_paymentevent',
    query: EventsQuery,
    responses: { 200: adminPage(PaymentEvent) },
    run: paymentEvents,
  }),
});
