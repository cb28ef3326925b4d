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
import { ADMIN_COOKIE, type Staff, staffLogin, staffLogout } from '@mathisland/core/admin/index';
import { getUser } from '@mathisland/core/auth/index';
import {
  cancelOrder,
  getOrder,
  invoiceNumber,
  listOrderEvents,
  listOrders,
  type Order,
  paymentErrors,
  refundOrder,
} from '@mathisland/core/subscriptions/index';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { z } from 'zod';
import { cookie, defineGroup, isoTime, publicBaseUrl, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

function sessionCookie(event: APIGatewayProxyEventV2, value: string, maxAgeSeconds: number): string {
  const secure = publicBaseUrl(event).startsWith('https:') ? '; Secure' : '';
  return `${ADMIN_COOKIE}=${value}; Path=/api/admin; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

const staffView = (staff: Staff) => ({ ...staff, createdAt: isoTime(staff.createdAt) });

const iso = (ms: number | undefined) => isoTime(ms ?? null);

/** An order for staff: everything stored (no secret is stored on an order), times ISO, with its invoice number. */
const orderView = (deps: Deps, order: Order) => ({
  ...order,
  invoiceNumber: order.status === 'paid' || order.status === 'refunded' ? invoiceNumber(deps.settings.invoicePrefix, order.id) : null,
  createdAt: iso(order.createdAt),
  updatedAt: iso(order.updatedAt),
  gatewayStartedAt: iso(order.gatewayStartedAt),
  paidAt: iso(order.paidAt),
  failedAt: iso(order.failedAt),
  cancelledAt: iso(order.cancelledAt),
  refundedAt: iso(order.refundedAt),
  grant: order.grant ? { days: order.grant.days, from: iso(order.grant.fromMs), to: iso(order.grant.toMs) } : null,
});

const statusFilter = z.enum(['pending', 'paid', 'failed', 'refunded', 'cancelled']);

export const { handler, routes } = defineGroup('admin', {
  'POST /api/admin/login': route({
    body: z.strictObject({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) }),
    async run({ deps, body, event }) {
      const { token, staff, maxAgeSeconds } = await staffLogin(deps, body.username, body.password);
      return new HttpResponse(200, staffView(staff), {}, [sessionCookie(event, token, maxAgeSeconds)]);
    },
  }),
  'POST /api/admin/logout': route({
    async run({ deps, event }) {
      await staffLogout(deps, cookie(event, ADMIN_COOKIE));
      return new HttpResponse(204, undefined, {}, [sessionCookie(event, '', 0)]);
    },
  }),
  'GET /api/admin/session': route({ run: async ({ staff }) => staffView(staff) }),
  'GET /api/admin/orders': route({
    permission: 'orders.view',
    query: z.object({
      status: statusFilter.optional(),
      cursor: z.string().max(2000).optional(),
      limit: z
        .string()
        .regex(/^[0-9]{1,3}$/, 'limit must be 1 to 200')
        .transform(Number)
        .refine((n) => n >= 1 && n <= 200, 'limit must be 1 to 200')
        .optional(),
    }),
    async run({ deps, query }) {
      const page = await listOrders(deps, query);
      return { items: page.items.map((o) => orderView(deps, o)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
  }),
  'GET /api/admin/orders/{id}': route({
    permission: 'orders.view',
    async run({ deps, id }) {
      const order = await getOrder(deps, id);
      const user = await getUser(deps, order.userId);
      return { ...orderView(deps, order), user: user ? { id: user.id, publicId: user.publicId } : null };
    },
  }),
  'GET /api/admin/orders/{id}/events': route({
    permission: 'orders.view',
    async run({ deps, id }) {
      await getOrder(deps, id);
      return { items: (await listOrderEvents(deps, id)).map((e) => ({ ...e, at: isoTime(e.at) })) };
    },
  }),
  'POST /api/admin/orders/{id}/cancel': route({
    permission: 'orders.change',
    run: async ({ deps, id, staff }) => orderView(deps, await cancelOrder(deps, id, staff.username)),
  }),
  'POST /api/admin/orders/{id}/refund': route({
    permission: 'orders.change',
    body: z.union([z.undefined(), z.strictObject({ confirm: z.boolean() })]),
    async run({ deps, id, staff, body }) {
      if (body?.confirm !== true) throw paymentErrors.refundNotConfirmed();
      const result = await refundOrder(deps, id, staff.username);
      return { ...orderView(deps, result.order), daysTakenBack: result.daysTakenBack, commissionReversed: result.commissionReversed };
    },
  }),
});
