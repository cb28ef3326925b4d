/**
 * Endpoint group `admin`: the staff API the admin SPA talks to (spec Authentication 6, "Order" admin rows;
 * DESIGN §3 `/api/admin/*` with an admin session cookie).
 *
 * - `POST /api/admin/login` `{ username, password }` sets the session cookie (HttpOnly, SameSite=Strict,
 *   Path=/api/admin, Secure unless the request came over plain http, i.e. the local server); logout clears it.
 * - Orders: list (`orders.view`), read, its payment events (read-only), cancel and refund (`orders.change`;
 *   refund needs `{ "confirm": true }`, the API's form of the spec's confirmation page).
 */
import type { Deps } from '@mathisland/core';
import { ADMIN_COOKIE, type Staff, staffLogin, staffLogout } from '@mathisland/core/admin';
import { getUser } from '@mathisland/core/auth';
import {
  cancelOrder,
  getOrder,
  invoiceNumber,
  listOrderEvents,
  listOrders,
  type Order,
  paymentErrors,
  refundOrder,
} from '@mathisland/core/subscriptions';
import { z } from 'zod';
import { defineGroup } from '../lib/group';
import { cookie, HttpResponse, isoTime } from '../lib/http';
import { type AdminInput, type RouteInput, route } from '../lib/route';

/** The admin session cookie; `Secure` when the service is served over https (PUBLIC_BASE_URL). */
function sessionCookie(deps: Deps, value: string, maxAgeSeconds: number): string {
  const secure = deps.settings.publicBaseUrl?.startsWith('https:') ? '; Secure' : '';
  return `${ADMIN_COOKIE}=${value}; Path=/api/admin; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

const staffView = (staff: Staff) => ({ ...staff, createdAt: isoTime(staff.createdAt) });

/** An order for staff: everything stored (no secret is stored on an order), times ISO, with its invoice number. */
const orderView = (deps: Deps, order: Order) => ({
  ...order,
  invoiceNumber: order.status === 'paid' || order.status === 'refunded' ? invoiceNumber(deps.settings.invoicePrefix, order.id) : null,
  createdAt: isoTime(order.createdAt),
  updatedAt: isoTime(order.updatedAt),
  gatewayStartedAt: isoTime(order.gatewayStartedAt),
  paidAt: isoTime(order.paidAt),
  failedAt: isoTime(order.failedAt),
  cancelledAt: isoTime(order.cancelledAt),
  refundedAt: isoTime(order.refundedAt),
  grant: order.grant ? { days: order.grant.days, from: isoTime(order.grant.fromMs), to: isoTime(order.grant.toMs) } : null,
});

const Credentials = z.strictObject({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) });
const OrdersQuery = z.object({
  status: z.enum(['pending', 'paid', 'failed', 'refunded', 'cancelled']).optional(),
  cursor: z.string().max(2000).optional(),
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, 'limit must be 1 to 200')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 200, 'limit must be 1 to 200')
    .optional(),
});
const Refund = z.union([z.undefined(), z.strictObject({ confirm: z.boolean() })]);

type Input = AdminInput<undefined, unknown>;

async function signIn({ deps, body }: RouteInput<z.infer<typeof Credentials>, unknown>) {
  const { token, staff, maxAgeSeconds } = await staffLogin(deps, body.username, body.password);
  return new HttpResponse(200, staffView(staff), {}, [sessionCookie(deps, token, maxAgeSeconds)]);
}

async function signOut({ deps, event }: RouteInput<undefined, unknown>) {
  await staffLogout(deps, cookie(event, ADMIN_COOKIE));
  return new HttpResponse(204, undefined, {}, [sessionCookie(deps, '', 0)]);
}

const session = async ({ staff }: Input) => staffView(staff);

async function orders({ deps, query }: AdminInput<undefined, z.infer<typeof OrdersQuery>>) {
  const page = await listOrders(deps, query);
  return { items: page.items.map((o) => orderView(deps, o)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

async function order({ deps, id }: Input) {
  const found = await getOrder(deps, id);
  const user = await getUser(deps.db, found.userId);
  return { ...orderView(deps, found), user: user ? { id: user.id, publicId: user.publicId } : null };
}

async function orderEvents({ deps, id }: Input) {
  await getOrder(deps, id);
  return { items: (await listOrderEvents(deps, id)).map((e) => ({ ...e, at: isoTime(e.at) })) };
}

const cancel = async ({ deps, id, staff }: Input) => orderView(deps, await cancelOrder(deps, id, staff.username));

async function refund({ deps, id, staff, body }: AdminInput<z.infer<typeof Refund>, unknown>) {
  if (body?.confirm !== true) throw paymentErrors.refundNotConfirmed();
  const result = await refundOrder(deps, id, staff.username);
  return { ...orderView(deps, result.order), daysTakenBack: result.daysTakenBack, commissionReversed: result.commissionReversed };
}

export const { handler, createHandler, routes } = defineGroup('admin', {
  'POST /api/admin/login': route.public({ body: Credentials, run: signIn }),
  'POST /api/admin/logout': route.public({ run: signOut }),
  'GET /api/admin/session': route.admin({ run: session }),
  'GET /api/admin/orders': route.admin({ permission: 'orders.view', query: OrdersQuery, run: orders }),
  'GET /api/admin/orders/{id}': route.admin({ permission: 'orders.view', run: order }),
  'GET /api/admin/orders/{id}/events': route.admin({ permission: 'orders.view', run: orderEvents }),
  'POST /api/admin/orders/{id}/cancel': route.admin({ permission: 'orders.change', run: cancel }),
  'POST /api/admin/orders/{id}/refund': route.admin({ permission: 'orders.change', body: Refund, run: refund }),
});
