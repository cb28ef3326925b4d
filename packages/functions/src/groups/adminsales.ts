/**
 * Endpoint group `adminsales`: learners, orders and payment events for the staff (DESIGN §9; docs/admin-api.md).
 * Orders are read with `view_order`; cancel and refund need `change_order` (spec Authentication 6). The refund
 * is two steps: `GET …/refund` is the confirmation page's data (days and commission it takes back), `POST
 * …/refund { confirm: true }` does it.
 */
import { listUsers } from '@mathisland/core/auth';
import {
  cancelOrderForStaff,
  listOrdersForStaff,
  listPaymentEvents,
  ORDER_STATUSES,
  orderForStaff,
  PaymentEventKind,
  Provider,
  paymentErrors,
  refundConfirmation,
  refundOrderForStaff,
  userWithOrders,
} from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { listAnswer, listQuery, QueryId } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { type AdminInput, route } from '../lib/route';

const UsersQuery = listQuery({ q: z.string().min(1).max(100).optional() });
const OrdersQuery = listQuery({ status: z.enum(ORDER_STATUSES).optional(), provider: Provider.optional(), userId: QueryId.optional() });
const EventsQuery = listQuery({ orderId: QueryId.optional(), kind: PaymentEventKind.optional() });
const OrderEventsQuery = listQuery({ kind: PaymentEventKind.optional() });
const NoQuery = z.strictObject({});
const Refund = z.union([z.undefined(), z.strictObject({ confirm: z.boolean() })]);

type Input = AdminInput<undefined, unknown>;

const users = async ({ deps, query }: AdminInput<undefined, z.infer<typeof UsersQuery>>) => listAnswer(await listUsers(deps, query));
const user = async ({ deps, id }: Input) => userWithOrders(deps, id);
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

export const { handler, createHandler, routes } = defineGroup('adminsales', {
  'GET /api/admin/users': route.admin({ permission: 'view_user', query: UsersQuery, run: users }),
  'GET /api/admin/users/{id}': route.admin({ permission: 'view_user', query: NoQuery, run: user }),
  'GET /api/admin/orders': route.admin({ permission: 'view_order', query: OrdersQuery, run: orders }),
  'GET /api/admin/orders/{id}': route.admin({ permission: 'view_order', query: NoQuery, run: order }),
  'GET /api/admin/orders/{id}/events': route.admin({ permission: 'view_order', query: OrderEventsQuery, run: orderEvents }),
  'POST /api/admin/orders/{id}/cancel': route.admin({ permission: 'change_order', run: cancel }),
  'GET /api/admin/orders/{id}/refund': route.admin({ permission: 'view_order', query: NoQuery, run: refundPreview }),
  'POST /api/admin/orders/{id}/refund': route.admin({ permission: 'change_order', body: Refund, run: refund }),
  'GET /api/admin/payment-events': route.admin({ permission: 'view_paymentevent', query: EventsQuery, run: paymentEvents }),
});
