/**
 * Issue 11 §1: every admin route answers 401 without a session, 403 `permission_denied` naming its permission
 * without it, and succeeds with exactly that permission (a superuser for the superuser-only models); and refuses
 * bad input: an unknown query parameter, a bad body, a bad id. The table covers every `/api/admin/*` route of the
 * manifest that needs a session; sign-in and sign-out (public) have their own bad-input test at the end.
 */
import { randomUUID } from 'node:crypto';
import { saveDiscountCode } from '@mathisland/core/subscriptions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '../infra/routes';
import { adminexportRoutes } from '../infra/routes/adminexport';
import { admintoolsRoutes } from '../infra/routes/admintools';
import { admin, buyAndPay, PLAN_30, PLAN_90, purchase, staffSession } from './support/payments';
import { call, type Session, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

interface Case {
  /** The manifest's route key. */
  key: string;
  /** A concrete path that succeeds with the permission. */
  path: () => string;
  /** null: any signed-in staff member. */
  permission: string | null;
  superuserOnly?: boolean;
  body?: () => unknown;
  status: number;
  /** A body the route must refuse (400), for writes that take one. */
  badBody?: unknown;
  /** A concrete path with a malformed id (400 `invalid_id` for numeric ids, 404 otherwise). */
  badId?: string;
}

describe('admin routes: permissions and bad input', () => {
  const stack = useStack({ now: NOW });
  let learner: Session;
  let paidOrder: number;
  let pendingOrders: number[];
  let ticketId: number;
  const codes = [`ACC${randomUUID().slice(0, 6).toUpperCase()}`, `DEL${randomUUID().slice(0, 6).toUpperCase()}`];
  const targetStaff = [`tgt-${randomUUID().slice(0, 6)}`, `del-${randomUUID().slice(0, 6)}`];
  const planIds: number[] = [];
  const cookies = new Map<string, string>();

  /** A session holding exactly `permission` (a superuser for superuser-only ones), or none at all (`''`). */
  async function sessionWith(permission: string | null, superuser = false): Promise<string> {
    const key = superuser ? '*' : (permission ?? '');
    if (!cookies.has(key)) {
      const perms = superuser || !permission ? [] : [permission];
      cookies.set(key, (await staffSession(stack, { isSuperuser: superuser, permissions: perms as never })).cookie);
    }
    return cookies.get(key) as string;
  }

  beforeAll(async () => {
    learner = await signIn(stack);
    paidOrder = (await buyAndPay(stack, learner, PLAN_30)).orderId;
    pendingOrders = [
      (await purchase(stack, learner, { planId: PLAN_90, paymentMethod: 'gateway' })).body.orderId,
      (await purchase(stack, learner, { planId: PLAN_90, paymentMethod: 'gateway' })).body.orderId,
    ];
    ticketId = (await call(stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject: 'Help', text: 'Where?' } })).body
      .id;
    const root = await sessionWith(null, true);
    for (const title of ['To change', 'To delete']) {
      const made = await admin(stack, root, 'POST', '/api/admin/plans', { title, price: 1000, durationDays: 7, aiDailyQuota: 1 });
      expect(made.status, made.text).toBe(201);
      planIds.push(made.body.id);
    }
    for (const code of codes) await saveDiscountCode(stack.deps.db, { code, title: 't', percent: 5, advertised: true, active: true });
    for (const username of targetStaff) await staffSession(stack, { username });
  });

  const cases: Case[] = [
    { key: 'GET /api/admin/me', path: () => '/api/admin/me', permission: null, status: 200 },
    { key: 'GET /api/admin/dashboard', path: () => '/api/admin/dashboard', permission: null, status: 200 },
    { key: 'GET /api/admin/staff', path: () => '/api/admin/staff', permission: 'view_staff', superuserOnly: true, status: 200 },
    {
      key: 'POST /api/admin/staff',
      path: () => '/api/admin/staff',
      permission: 'add_staff',
      superuserOnly: true,
      body: () => ({ username: `new-${randomUUID().slice(0, 6)}`, password: 'a-long-password', permissions: ['view_order'] }),
      badBody: { username: 'someone', password: 'short' },
      status: 201,
    },
    {
      key: 'GET /api/admin/staff/{username}',
      path: () => `/api/admin/staff/${targetStaff[0]}`,
      permission: 'view_staff',
      superuserOnly: true,
      status: 200,
      badId: '/api/admin/staff/%E0%A4',
    },
    {
      key: 'PATCH /api/admin/staff/{username}',
      path: () => `/api/admin/staff/${targetStaff[0]}`,
      permission: 'change_staff',
      superuserOnly: true,
      body: () => ({ permissions: ['view_plan'] }),
      badBody: { permissions: ['fly_plane'] },
      status: 200,
      badId: '/api/admin/staff/nobody-here',
    },
    {
      key: 'DELETE /api/admin/staff/{username}',
      path: () => `/api/admin/staff/${targetStaff[1]}`,
      permission: 'delete_staff',
      superuserOnly: true,
      status: 204,
      badId: '/api/admin/staff/nobody-here',
    },
    {
      key: 'POST /api/admin/staff/{username}/end-sessions',
      path: () => `/api/admin/staff/${targetStaff[0]}/end-sessions`,
      permission: 'change_staff',
      superuserOnly: true,
      badBody: { all: true },
      status: 204,
      badId: '/api/admin/staff/nobody-here/end-sessions',
    },
    { key: 'GET /api/admin/sessions', path: () => '/api/admin/sessions', permission: 'view_session', superuserOnly: true, status: 200 },
    {
      key: 'DELETE /api/admin/sessions/{sessionId}',
      path: () => `/api/admin/sessions/${learner.userId}-${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      permission: 'delete_session',
      superuserOnly: true,
      status: 404, // a session that is not the learner's live one: nothing revoked
      badId: '/api/admin/sessions/not-a-session',
    },
    {
      key: 'GET /api/admin/otp-records',
      path: () => '/api/admin/otp-records',
      permission: 'view_otprecord',
      superuserOnly: true,
      status: 200,
    },
    { key: 'GET /api/admin/users', path: () => '/api/admin/users', permission: 'view_user', status: 200 },
    {
      key: 'GET /api/admin/users/{id}',
      path: () => `/api/admin/users/${learner.userId}`,
      permission: 'view_user',
      status: 200,
      badId: '/api/admin/users/%DB%B1%DB%B2',
    },
    { key: 'GET /api/admin/orders', path: () => '/api/admin/orders', permission: 'view_order', status: 200 },
    {
      key: 'GET /api/admin/orders/{id}',
      path: () => `/api/admin/orders/${paidOrder}`,
      permission: 'view_order',
      status: 200,
      badId: '/api/admin/orders/abc',
    },
    {
      key: 'GET /api/admin/orders/{id}/events',
      path: () => `/api/admin/orders/${paidOrder}/events`,
      permission: 'view_order',
      status: 200,
      badId: '/api/admin/orders/1.5/events',
    },
    {
      key: 'POST /api/admin/orders/{id}/cancel',
      path: () => `/api/admin/orders/${pendingOrders[0]}/cancel`,
      permission: 'change_order',
      status: 200,
      badBody: { reason: 'x' },
      badId: '/api/admin/orders/-1/cancel',
    },
    {
      key: 'GET /api/admin/orders/{id}/refund',
      path: () => `/api/admin/orders/${paidOrder}/refund`,
      permission: 'view_order',
      status: 200,
      badId: '/api/admin/orders/x/refund',
    },
    {
      key: 'POST /api/admin/orders/{id}/refund',
      path: () => `/api/admin/orders/${paidOrder}/refund`,
      permission: 'change_order',
      body: () => ({ confirm: true }),
      badBody: { confirm: 'yes' },
      status: 200,
      badId: '/api/admin/orders/%20/refund',
    },
    { key: 'GET /api/admin/payment-events', path: () => '/api/admin/payment-events', permission: 'view_paymentevent', status: 200 },
    { key: 'GET /api/admin/plans', path: () => '/api/admin/plans', permission: 'view_plan', status: 200 },
    {
      key: 'POST /api/admin/plans',
      path: () => '/api/admin/plans',
      permission: 'add_plan',
      body: () => ({ title: 'New', price: 5000, durationDays: 30, aiDailyQuota: 2 }),
      badBody: { title: 'New', price: -1, durationDays: 30, aiDailyQuota: 2 },
      status: 201,
    },
    {
      key: 'GET /api/admin/plans/{id}',
      path: () => `/api/admin/plans/${PLAN_30}`,
      permission: 'view_plan',
      status: 200,
      badId: '/api/admin/plans/one',
    },
    {
      key: 'PATCH /api/admin/plans/{id}',
      path: () => `/api/admin/plans/${planIds[0]}`,
      permission: 'change_plan',
      body: () => ({ badge: 'new' }),
      badBody: { durationDays: 0 },
      status: 200,
      badId: '/api/admin/plans/٣',
    },
    {
      key: 'DELETE /api/admin/plans/{id}',
      path: () => `/api/admin/plans/${planIds[1]}`,
      permission: 'delete_plan',
      status: 204,
      badId: '/api/admin/plans/x',
    },
    { key: 'GET /api/admin/discount-codes', path: () => '/api/admin/discount-codes', permission: 'view_discountcode', status: 200 },
    {
      key: 'POST /api/admin/discount-codes',
      path: () => '/api/admin/discount-codes',
      permission: 'add_discountcode',
      superuserOnly: true,
      body: () => ({ code: `NEW${randomUUID().slice(0, 6)}`, title: 'New', percent: 20 }),
      badBody: { code: 'NEWCODE', title: 'New', percent: 120 },
      status: 201,
    },
    {
      key: 'GET /api/admin/discount-codes/{code}',
      path: () => `/api/admin/discount-codes/${codes[0]}`,
      permission: 'view_discountcode',
      status: 200,
      badId: '/api/admin/discount-codes/no%20such',
    },
    {
      key: 'PATCH /api/admin/discount-codes/{code}',
      path: () => `/api/admin/discount-codes/${codes[0]}`,
      permission: 'change_discountcode',
      superuserOnly: true,
      body: () => ({ percent: 15 }),
      badBody: { uses: 0 },
      status: 200,
      badId: '/api/admin/discount-codes/NOSUCHCODE',
    },
    {
      key: 'DELETE /api/admin/discount-codes/{code}',
      path: () => `/api/admin/discount-codes/${codes[1]}`,
      permission: 'delete_discountcode',
      status: 204,
      badId: '/api/admin/discount-codes/NOSUCHCODE',
    },
    { key: 'GET /api/admin/offers', path: () => '/api/admin/offers', permission: 'view_offer', status: 200 },
    {
      key: 'GET /api/admin/offers/{code}',
      path: () => `/api/admin/offers/${codes[0]}`,
      permission: 'view_offer',
      status: 200,
      badId: '/api/admin/offers/NOSUCHCODE',
    },
    {
      key: 'PATCH /api/admin/offers/{code}',
      path: () => `/api/admin/offers/${codes[0]}`,
      permission: 'change_offer',
      body: () => ({ title: 'Autumn' }),
      badBody: { percent: 50 },
      status: 200,
      badId: '/api/admin/offers/NOSUCHCODE',
    },
    { key: 'GET /api/admin/tickets', path: () => '/api/admin/tickets', permission: 'view_ticket', status: 200 },
    {
      key: 'GET /api/admin/tickets/{id}',
      path: () => `/api/admin/tickets/${ticketId}`,
      permission: 'view_ticket',
      status: 200,
      badId: '/api/admin/tickets/t1',
    },
    {
      key: 'POST /api/admin/tickets/{id}/messages',
      path: () => `/api/admin/tickets/${ticketId}/messages`,
      permission: 'change_ticket',
      body: () => ({ text: 'Here.' }),
      badBody: { text: 'x'.repeat(5001) },
      status: 200,
      badId: '/api/admin/tickets/t1/messages',
    },
    {
      key: 'POST /api/admin/tickets/{id}/close',
      path: () => `/api/admin/tickets/${ticketId}/close`,
      permission: 'change_ticket',
      status: 200,
      badBody: { now: true },
      badId: '/api/admin/tickets/t1/close',
    },
    { key: 'GET /api/admin/notifications', path: () => '/api/admin/notifications', permission: 'view_notification', status: 200 },
    {
      key: 'POST /api/admin/notifications',
      path: () => '/api/admin/notifications',
      permission: 'add_notification',
      body: () => ({ userId: learner.userId, title: 'Hi', body: 'Welcome' }),
      badBody: { userId: 1, all: true, title: 'Hi', body: 'Both' },
      status: 201,
    },
    {
      key: 'GET /api/admin/marketplace',
      path: () => '/api/admin/marketplace',
      permission: 'view_marketplacecredential',
      status: 200,
    },
    {
      key: 'POST /api/admin/marketplace/authorize-window',
      path: () => '/api/admin/marketplace/authorize-window',
      permission: 'change_marketplacecredential',
      body: () => ({ hours: 24 }),
      badBody: { hours: 721 },
      status: 200,
    },
    { key: 'GET /api/admin/tutor/feedback', path: () => '/api/admin/tutor/feedback', permission: 'view_tutorfeedback', status: 200 },
    { key: 'GET /api/admin/tutor/usage', path: () => '/api/admin/tutor/usage', permission: 'view_tutorusage', status: 200 },
    // Last: it ends every session of the staff member without a permission whom the cases above share.
    {
      key: 'POST /api/admin/me/end-sessions',
      path: () => '/api/admin/me/end-sessions',
      permission: null,
      badBody: { all: true },
      status: 204,
    },
  ];

  it('covers every admin route of the manifest but the sign-in and sign-out (the everyday tools: adminToolsAccess.test.ts)', () => {
    const covered = new Set(cases.map((c) => c.key));
    const tools = new Set([...admintoolsRoutes, ...adminexportRoutes].map(routeKey).concat('POST /api/admin/me/password'));
    const adminRoutes = routes
      .filter((r) => r.path.startsWith('/api/admin/') && r.auth === 'admin' && !tools.has(routeKey(r)))
      .map(routeKey);
    expect([...adminRoutes].sort()).toEqual([...covered].sort());
  });

  it.each(cases)('$key: 401 without a session, 403 without $permission, $status with it', async (c) => {
    const [method] = c.key.split(' ') as [string];
    const anonymous = await admin(stack, undefined, method, c.path(), c.body?.());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_authenticated');
    if (c.permission) {
      const denied = await admin(stack, await sessionWith(null), method, c.path(), c.body?.());
      expect(denied.status, denied.text).toBe(403);
      expect(denied.body).toMatchObject({ code: 'permission_denied', detail: expect.stringContaining(c.permission) });
      if (c.superuserOnly) {
        // Not grantable: no staff member but a superuser holds it.
        const granted = await call(stack, 'POST', '/api/admin/staff', {
          headers: { cookie: await sessionWith(null, true) },
          body: { username: `x-${randomUUID().slice(0, 6)}`, password: 'a-long-password', permissions: [c.permission] },
        });
        expect(granted.status).toBe(400);
      }
    }
    const allowed = await admin(stack, await sessionWith(c.permission, Boolean(c.superuserOnly)), method, c.path(), c.body?.());
    expect(allowed.status, allowed.text).toBe(c.status);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
  });

  it.each(cases)('$key: refuses an unknown query parameter, a bad body and a bad id', async (c) => {
    const [method] = c.key.split(' ') as [string];
    const root = await sessionWith(null, true);
    const unknown = await admin(stack, root, method, `${c.path()}?colour=red`, c.body?.());
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.code).toBe('validation_error');
    if (method === 'GET') expect(unknown.body.fields).toHaveProperty('colour');
    if (c.badBody !== undefined) {
      const bad = await admin(stack, root, method, c.path(), c.badBody);
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.code).toBe('validation_error');
      expect((await admin(stack, root, method, c.path(), '{not json')).body.code).toBe('invalid_json');
    }
    if (c.badId) {
      const bad = await admin(stack, root, method, c.badId, c.body?.());
      expect([400, 404]).toContain(bad.status);
      if (c.key.includes('{id}')) expect(bad.body.code).toBe('invalid_id');
      else expect(bad.body.code).toBe('not_found');
    }
  });
});

describe('admin sign-in and sign-out: bad input', () => {
  const stack = useStack({ now: NOW });

  it('refuses a sign-in without a password, with an unknown field, an unknown query parameter or a body that is not JSON', async () => {
    const { username, password } = await staffSession(stack);
    const missing = await call(stack, 'POST', '/api/admin/login', { body: { username } });
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation_error', fields: { password: expect.any(Array) } });
    const extra = await call(stack, 'POST', '/api/admin/login', { body: { username, password, remember: true } });
    expect(extra.status, extra.text).toBe(400);
    expect(extra.body).toMatchObject({ code: 'validation_error', fields: { remember: expect.any(Array) } });
    const long = await call(stack, 'POST', '/api/admin/login', { body: { username: 'u'.repeat(65), password } });
    expect(long.body).toMatchObject({ code: 'validation_error', fields: { username: expect.any(Array) } });
    const query = await call(stack, 'POST', '/api/admin/login?next=/admin/', { body: { username, password } });
    expect([query.status, query.body.code]).toEqual([400, 'validation_error']);
    expect(query.headers.get('set-cookie')).toBeNull();
    const broken = await call(stack, 'POST', '/api/admin/login', { body: '{"username":' });
    expect([broken.status, broken.body.code]).toEqual([400, 'invalid_json']);
  });

  it('refuses a sign-out with a body or an unknown query parameter, and signs out without one', async () => {
    const { cookie } = await staffSession(stack);
    const body = await admin(stack, cookie, 'POST', '/api/admin/logout', { everywhere: true });
    expect([body.status, body.body.code]).toEqual([400, 'validation_error']);
    const query = await admin(stack, cookie, 'POST', '/api/admin/logout?all=1');
    expect([query.status, query.body.code]).toEqual([400, 'validation_error']);
    expect((await admin(stack, cookie, 'GET', '/api/admin/me')).status).toBe(200);
    expect((await admin(stack, cookie, 'POST', '/api/admin/logout')).status).toBe(204);
    expect((await admin(stack, cookie, 'GET', '/api/admin/me')).status).toBe(401);
  });
});
