/**
 * Issue 4 §10 and the staff auth it needs (spec Authentication 6, "Order" admin rows): admin login with a
 * cookie session, permissions (401/403), cancel (and a later verification still paying the order), refund with
 * confirmation (days taken back, commission undone), read-only payment events, and createsuperuser.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  admin,
  buyAndPay,
  DAY_MS,
  eventsOf,
  fetchManual,
  openPayLink,
  PLAN_30,
  PLAN_90,
  pressOnGateway,
  purchase,
  staffSession,
  status,
} from './support/payments';
import { call, signIn, startTestStack, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

describe('staff sign-in and permissions', () => {
  const stack = useStack({ now: NOW });

  it('sets an HttpOnly, SameSite=Strict cookie (Secure behind https) and answers the session', async () => {
    const { setCookie, cookie, username } = await staffSession(stack, { isSuperuser: true });
    expect(setCookie).toMatch(/^mathisland_admin=[A-Za-z0-9_-]{43}; Path=\/api; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const me = await admin(stack, cookie, 'GET', '/api/admin/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username, isSuperuser: true, permissions: expect.arrayContaining(['change_order', 'view_staff']) });
    expect(me.text).not.toMatch(/hash|password/i);
  });

  it('marks the cookie Secure when the service is served over https (PUBLIC_BASE_URL), whatever the request claims', async () => {
    const username = `tls-${randomUUID().slice(0, 6)}`;
    const { password } = await staffSession(stack, { username, isSuperuser: true });
    const claimed = await call(stack, 'POST', '/api/admin/login', {
      body: { username, password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers.get('set-cookie')).not.toMatch(/Secure/);
    const deployed = await startTestStack({ now: NOW, env: { PUBLIC_BASE_URL: 'https://api.mathisland.example' } });
    try {
      const again = await staffSession(deployed, { username, isSuperuser: true });
      const res = await call(deployed, 'POST', '/api/admin/login', { body: { username, password: again.password } });
      expect(res.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await deployed.close();
    }
  });

  it('refuses a wrong password and an unknown user with one message (401)', async () => {
    const { username } = await staffSession(stack, { isSuperuser: true });
    const wrong = await call(stack, 'POST', '/api/admin/login', { body: { username, password: 'not-the-password' } });
    const unknown = await call(stack, 'POST', '/api/admin/login', { body: { username: 'nobody-here', password: 'not-the-password' } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ code: 'not_authenticated', detail: 'Wrong username or password' });
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('answers 401 without a session or with a forged or ended one', async () => {
    for (const cookie of [undefined, 'mathisland_admin=forged-token-value', 'other=1']) {
      const res = await admin(stack, cookie, 'GET', '/api/admin/orders');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('not_authenticated');
    }
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const out = await admin(stack, cookie, 'POST', '/api/admin/logout');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^mathisland_admin=; Path=\/api; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect((await admin(stack, cookie, 'GET', '/api/admin/me')).status).toBe(401);
    // A user's access token is no admin session.
    const learner = await signIn(stack);
    expect((await call(stack, 'GET', '/api/admin/orders', { token: learner.accessToken })).status).toBe(401);
  });

  it('answers 403 without the permission a route needs', async () => {
    const nobody = await staffSession(stack, { permissions: [] });
    expect((await admin(stack, nobody.cookie, 'GET', '/api/admin/me')).status).toBe(200);
    const denied = await admin(stack, nobody.cookie, 'GET', '/api/admin/orders');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 'permission_denied', detail: 'This action needs the view_order permission' });

    const s = await signIn(stack);
    const order = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const viewer = await staffSession(stack, { permissions: ['view_order'] });
    expect((await admin(stack, viewer.cookie, 'GET', `/api/admin/orders/${order.body.orderId}`)).status).toBe(200);
    expect((await admin(stack, viewer.cookie, 'GET', `/api/admin/orders/${order.body.orderId}/events`)).status).toBe(200);
    const cancel = await admin(stack, viewer.cookie, 'POST', `/api/admin/orders/${order.body.orderId}/cancel`);
    expect(cancel.status).toBe(403);
    expect(cancel.body.detail).toContain('change_order');
    expect((await admin(stack, viewer.cookie, 'POST', `/api/admin/orders/${order.body.orderId}/refund`, { confirm: true })).status).toBe(
      403,
    );

    // A learner's page shows their orders only to whom orders are open: view_user alone sees none.
    const supportDesk = await staffSession(stack, { permissions: ['view_user'] });
    const learnerPage = await admin(stack, supportDesk.cookie, 'GET', `/api/admin/users/${s.userId}`);
    expect([learnerPage.status, learnerPage.body.orders]).toEqual([200, null]);
    const salesDesk = await staffSession(stack, { permissions: ['view_user', 'view_order'] });
    const withOrders = await admin(stack, salesDesk.cookie, 'GET', `/api/admin/users/${s.userId}`);
    expect(withOrders.body.orders.map((o: { id: number }) => o.id)).toEqual([order.body.orderId]);

    const changer = await staffSession(stack, { permissions: ['view_order', 'change_order'] });
    expect((await admin(stack, changer.cookie, 'POST', `/api/admin/orders/${order.body.orderId}/cancel`)).status).toBe(200);
    // Payment events are read-only.
    expect((await admin(stack, changer.cookie, 'POST', `/api/admin/orders/${order.body.orderId}/events`)).status).toBe(405);
  });

  it('rate-limits admin login per address by its own scope, whatever the usernames', async () => {
    // BENCH_THROTTLE_LIMIT stands in for the scope's 120 an hour (a different username each time: no username limit).
    const limited = await startTestStack({ now: NOW, env: { BENCH_THROTTLE_LIMIT: '5' } });
    try {
      let last = await call(limited, 'POST', '/api/admin/login', { body: { username: 'nobody-0', password: 'wrong-password' } });
      for (let i = 1; i < 6; i++)
        last = await call(limited, 'POST', '/api/admin/login', { body: { username: `nobody-${i}`, password: 'x' } });
      expect(last.status).toBe(429);
      expect(last.body.code).toBe('throttled');
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      // Other routes are not throttled by it.
      expect((await call(limited, 'GET', '/api/plans')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('staff actions on orders', () => {
  let stack: TestStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW });
    ({ cookie } = await staffSession(stack, { isSuperuser: true }));
  });
  afterAll(() => stack?.close());

  it('cancels a pending order; a later successful verification still makes it paid', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    const cancelled = await admin(stack, cookie, 'POST', `/api/admin/orders/${bought.body.orderId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancelledBy: expect.any(String),
      cancelledAt: new Date(NOW).toISOString(),
    });
    expect(await openPayLink(bought.body.paymentUrl)).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=cancelled`);
    expect((await admin(stack, cookie, 'POST', `/api/admin/orders/${bought.body.orderId}/cancel`)).body.code).toBe('order_status_conflict');

    // The buyer still had the gateway page open and pays.
    const back = await fetchManual(await pressOnGateway(startPay, 'pay'));
    expect(back.headers.get('location')).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`);
    expect((await status(stack, s)).active).toBe(true);
    const kinds = (await eventsOf(stack, bought.body.orderId)).map((e) => e.kind);
    expect(kinds).toContain('admin_cancel');

    const paidCancel = await admin(stack, cookie, 'POST', `/api/admin/orders/${bought.body.orderId}/cancel`);
    expect(paidCancel.status).toBe(409);
    expect(paidCancel.body.code).toBe('already_paid');
  });

  it('makes a cancelled order paid through the status re-check as well', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    await admin(stack, cookie, 'POST', `/api/admin/orders/${bought.body.orderId}/cancel`);
    await pressOnGateway(startPay, 'pay');
    expect((await status(stack, s)).recheckedOrders).toEqual([{ orderId: bought.body.orderId, status: 'paid' }]);
  });

  it('refunds a paid order after confirmation: days taken back, commission undone, admin_refund recorded', async () => {
    const referrer = await signIn(stack);
    const { code } = (await call(stack, 'GET', '/api/affiliate', { token: referrer.accessToken })).body;
    const s = await signIn(stack);
    await call(stack, 'POST', '/api/affiliate/referrer', { token: s.accessToken, body: { code } });
    const { orderId } = await buyAndPay(stack, s, PLAN_90);
    expect((await call(stack, 'GET', '/api/affiliate', { token: referrer.accessToken })).body.commission).toEqual({
      earned: 37_900,
      reversed: 0,
    });

    const unconfirmed = await admin(stack, cookie, 'POST', `/api/admin/orders/${orderId}/refund`);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.fields).toEqual({ confirm: ['must be true'] });
    expect((await admin(stack, cookie, 'POST', `/api/admin/orders/${orderId}/refund`, { confirm: false })).status).toBe(400);

    const refunded = await admin(stack, cookie, 'POST', `/api/admin/orders/${orderId}/refund`, { confirm: true });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', daysTakenBack: 90, commissionReversed: 37_900 });
    expect(await status(stack, s)).toMatchObject({ status: 'expired', active: false, expiresAt: new Date(NOW).toISOString() });
    expect((await call(stack, 'GET', '/api/affiliate', { token: referrer.accessToken })).body.commission).toEqual({
      earned: 0,
      reversed: 37_900,
    });
    const event = (await eventsOf(stack, orderId)).find((e) => e.kind === 'admin_refund');
    expect(event).toMatchObject({ days: 90, commission: 37_900, amount: 379_000 });
    expect((await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken })).body.items[0]).toMatchObject({
      status: 'refunded',
      refundedAt: new Date(NOW).toISOString(),
    });

    const again = await admin(stack, cookie, 'POST', `/api/admin/orders/${orderId}/refund`, { confirm: true });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('order_status_conflict');
  });

  it('keeps a refunded order refunded when its callback is replayed, and refunds never touch another order’s days', async () => {
    const s = await signIn(stack);
    const first = await buyAndPay(stack, s, PLAN_30);
    const second = await buyAndPay(stack, s, PLAN_90);
    expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 120 * DAY_MS).toISOString());
    await admin(stack, cookie, 'POST', `/api/admin/orders/${second.orderId}/refund`, { confirm: true });
    // The 30-day plan it extended is back, with its own end.
    expect(await status(stack, s)).toMatchObject({
      status: 'active',
      plan: { id: PLAN_30 },
      expiresAt: new Date(NOW + 30 * DAY_MS).toISOString(),
    });

    const replay = await fetchManual(second.callbackUrl);
    expect(replay.headers.get('location')).toBe(`${stack.baseUrl}/?orderId=${second.orderId}&status=refunded`);
    expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 30 * DAY_MS).toISOString());
    const ignored = (await eventsOf(stack, second.orderId)).filter((e) => e.kind === 'payment_result' && e.ignored);
    expect(ignored).toEqual([expect.objectContaining({ reason: 'order_refunded', gatewayCode: 101 })]);
    expect(first.orderId).toBeLessThan(second.orderId);
  });

  it('refuses to refund an order that is not paid', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const res = await admin(stack, cookie, 'POST', `/api/admin/orders/${bought.body.orderId}/refund`, { confirm: true });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'order_status_conflict', detail: 'The order is pending: only a paid order can be refunded' });
    expect((await admin(stack, cookie, 'POST', '/api/admin/orders/999999/refund', { confirm: true })).status).toBe(404);
  });

  it('lists orders newest first, by status, a page at a time; reads one with its events', async () => {
    const s = await signIn(stack);
    const c = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    expect((await admin(stack, cookie, 'POST', `/api/admin/orders/${c.body.orderId}/cancel`)).status).toBe(200);
    stack.clock.advance(1);
    const a = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    stack.clock.advance(1);
    const b = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    stack.clock.advance(1);
    const page = await admin(stack, cookie, 'GET', '/api/admin/orders?limit=1');
    expect(page.status).toBe(200);
    expect(page.body.items.map((o: any) => o.id)).toEqual([b.body.orderId]);
    const next = await admin(stack, cookie, 'GET', `/api/admin/orders?limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.items.map((o: any) => o.id)).toEqual([a.body.orderId]);
    // The status filter keeps exactly the orders of that status: a and b are pending, c is cancelled.
    const ids = (res: { body: { items: Array<{ id: number }> } }) => res.body.items.map((o) => o.id);
    const pending = await admin(stack, cookie, 'GET', '/api/admin/orders?status=pending&limit=100');
    expect(pending.status).toBe(200);
    expect(ids(pending)).toEqual(expect.arrayContaining([a.body.orderId, b.body.orderId]));
    expect(ids(pending)).not.toContain(c.body.orderId);
    expect(pending.body.items.every((o: any) => o.status === 'pending')).toBe(true);
    const cancelled = await admin(stack, cookie, 'GET', '/api/admin/orders?status=cancelled&limit=100');
    expect(ids(cancelled)).toContain(c.body.orderId);
    expect(ids(cancelled)).not.toContain(a.body.orderId);
    expect(cancelled.body.items.every((o: any) => o.status === 'cancelled')).toBe(true);
    expect((await admin(stack, cookie, 'GET', '/api/admin/orders?cursor=bogus')).status).toBe(400);
    expect((await admin(stack, cookie, 'GET', '/api/admin/orders?status=lost')).status).toBe(400);

    const one = await admin(stack, cookie, 'GET', `/api/admin/orders/${b.body.orderId}`);
    expect(one.body).toMatchObject({
      id: b.body.orderId,
      status: 'pending',
      planId: PLAN_90,
      listPrice: 379_000,
      userId: s.userId,
      userPublicId: expect.stringMatching(/^User[0-9]{6}$/),
    });
    const events = await admin(stack, cookie, 'GET', `/api/admin/orders/${b.body.orderId}/events`);
    expect(events.body.items).toEqual([
      expect.objectContaining({ kind: 'order_created', orderId: b.body.orderId, at: expect.any(String) }),
    ]);
    expect((await admin(stack, cookie, 'GET', '/api/admin/orders/999999')).status).toBe(404);
  });
});

describe('npm run createsuperuser', () => {
  const stack = useStack({ now: NOW });

  const run = (username: string, password: string) =>
    promisify(execFile)('node_modules/.bin/tsx', ['scripts/createsuperuser.ts', '--username', username], {
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
        TABLE_NAME: stack.deps.db.tableName,
        ADMIN_PASSWORD: password,
        LOG_LEVEL: 'WARN',
      },
    });

  it('creates a superuser who can sign in; refuses a taken name and a short password', async () => {
    const password = `pw-${randomUUID()}`;
    const { stdout } = await run('Boss', password);
    expect(stdout).toContain('Superuser boss created');
    const login = await call(stack, 'POST', '/api/admin/login', { body: { username: 'boss', password } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ username: 'boss', isSuperuser: true });

    await expect(run('boss', password)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('username boss is taken') });
    await expect(run('shorty', 'short')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('at least 10 characters') });

    // DESIGN §9: ADMIN_USERNAME / ADMIN_PASSWORD alone, no prompt (stdin is not a terminal here).
    const byEnv = await promisify(execFile)('node_modules/.bin/tsx', ['scripts/createsuperuser.ts'], {
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
        TABLE_NAME: stack.deps.db.tableName,
        ADMIN_USERNAME: 'EnvBoss',
        ADMIN_PASSWORD: password,
        LOG_LEVEL: 'WARN',
      },
    });
    expect(byEnv.stdout).toContain('Superuser envboss created');
    expect((await call(stack, 'POST', '/api/admin/login', { body: { username: 'envboss', password } })).body.isSuperuser).toBe(true);
  });
});
