/**
 * Issue 25 §1 (DESIGN §9 "Staff history"): every admin write, staff sign-in and sign-out appends an entry in the
 * transaction of the change, with each changed field's before and after and never a secret; a write that fails
 * leaves none; the list filters by model, record, staff member, action and time, each from its own index partition.
 */
import { randomUUID } from 'node:crypto';
import { saveDiscountCode } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { admin, staffSession } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const MINUTE = 60;

type Entry = {
  id: string;
  at: string;
  staff: string;
  action: string;
  model: string;
  objectId: string | null;
  objectRepr: string;
  changes: Record<string, unknown>;
};

describe('staff history', () => {
  const stack = useStack({ now: NOW });

  /** Every entry of `query`, following nextCursor. */
  async function entries(cookie: string, query: string): Promise<Entry[]> {
    const all: Entry[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin(stack, cookie, 'GET', `/api/admin/history?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status, page.text).toBe(200);
      all.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    return all;
  }

  it('records a plan price change with its before and after, shown on the plan’s own history with view_plan', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const made = await admin(stack, root.cookie, 'POST', '/api/admin/plans', {
      title: 'Weekly',
      price: 39_000,
      durationDays: 7,
      aiDailyQuota: 2,
    });
    expect(made.status, made.text).toBe(201);
    stack.clock.advance(MINUTE);
    const changed = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${made.body.id}`, { price: 45_000, features: ['Tutor'] });
    expect(changed.status, changed.text).toBe(200);
    stack.clock.advance(MINUTE);

    const viewer = await staffSession(stack, { permissions: ['view_plan'] });
    const own = await entries(viewer.cookie, `model=plan&objectId=${made.body.id}`);
    expect(own.map((e) => e.action)).toEqual(['change', 'add']);
    expect(own[0]).toMatchObject({
      staff: root.username,
      model: 'plan',
      objectId: String(made.body.id),
      objectRepr: 'Weekly',
      at: new Date(NOW + MINUTE * 1000).toISOString(),
      changes: { price: [39_000, 45_000], features: [[], ['Tutor']] },
    });
    expect(Object.keys(own[0]?.changes ?? {}).sort()).toEqual(['features', 'price']);
    expect(own[1]?.changes).toMatchObject({ title: [null, 'Weekly'], price: [null, 39_000] });
    // The whole history needs view_logentry; another record's history needs its own view permission.
    expect((await admin(stack, viewer.cookie, 'GET', '/api/admin/history')).status).toBe(403);
    expect((await admin(stack, viewer.cookie, 'GET', '/api/admin/history?model=order&objectId=1')).body.code).toBe('permission_denied');
    const auditor = await staffSession(stack, { permissions: ['view_logentry'] });
    expect((await entries(auditor.cookie, 'model=plan')).some((e) => e.objectId === String(made.body.id))).toBe(true);
  });

  it('leaves no entry when the write fails (a SKU another plan holds)', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const made = await admin(stack, root.cookie, 'POST', '/api/admin/plans', {
      title: 'Exam',
      price: 1000,
      durationDays: 7,
      aiDailyQuota: 1,
    });
    const before = await entries(root.cookie, `model=plan&objectId=${made.body.id}`);
    const taken = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${made.body.id}`, {
      price: 2000,
      marketplaceSku: 'mathisland_sub_1m',
    });
    expect(taken.status).toBe(409);
    expect(await entries(root.cookie, `model=plan&objectId=${made.body.id}`)).toEqual(before);
    expect((await admin(stack, root.cookie, 'GET', `/api/admin/plans/${made.body.id}`)).body.price).toBe(1000);
  });

  it('records sign-in, sign-out and a password change without the password, its hash or the session token', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const member = await staffSession(stack, { permissions: ['view_order'] });
    stack.clock.advance(1); // entries of one millisecond have no order among them
    const newPassword = `new-${randomUUID()}`;
    const changed = await admin(stack, root.cookie, 'PATCH', `/api/admin/staff/${member.username}`, {
      password: newPassword,
      permissions: ['view_order', 'view_plan'],
    });
    expect(changed.status, changed.text).toBe(200);
    stack.clock.advance(1);
    const signedIn = await call(stack, 'POST', '/api/admin/login', { body: { username: member.username, password: newPassword } });
    const cookie = (signedIn.headers.get('set-cookie') as string).split(';')[0] as string;
    stack.clock.advance(1);
    expect((await admin(stack, cookie, 'POST', '/api/admin/logout')).status).toBe(204);

    const raw = await admin(stack, root.cookie, 'GET', `/api/admin/history?model=staff&objectId=${member.username}&order=asc`);
    const own = raw.body.items as Entry[];
    // The member's creation and first sign-in (staffSession) fall in one millisecond: either order.
    expect(own.slice(0, 2).map((e) => [e.action, e.staff])).toEqual(
      expect.arrayContaining([
        ['add', 'createsuperuser'],
        ['sign_in', member.username],
      ]),
    );
    expect(own.slice(2).map((e) => [e.action, e.staff])).toEqual([
      ['change', root.username],
      ['sign_in', member.username],
      ['sign_out', member.username],
    ]);
    expect(own[2]?.changes).toEqual({ password: 'changed', permissions: [['view_order'], ['view_order', 'view_plan']] });
    for (const secret of [member.password, newPassword, '$argon2', 'scrypt$', cookie.split('=')[1] as string])
      expect(raw.text).not.toContain(secret);
    expect(raw.text).not.toContain('credentialVersion');
    // By staff member and by action: each its own index partition.
    expect((await entries(root.cookie, `staff=${member.username.toUpperCase()}`)).map((e) => e.action).sort()).toEqual([
      'sign_in',
      'sign_in',
      'sign_out',
    ]);
    expect((await entries(root.cookie, 'action=sign_out')).some((e) => e.staff === member.username)).toBe(true);
  });

  it('records discount code, offer, ticket, notification, session and order actions, each on its record', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const code = `HIS${randomUUID().slice(0, 6).toUpperCase()}`;
    await saveDiscountCode(stack.deps.db, { code, title: 'Autumn', percent: 10, advertised: false, active: true });
    expect((await admin(stack, root.cookie, 'PATCH', `/api/admin/discount-codes/${code}`, { active: false, maxUses: 5 })).status).toBe(200);
    stack.clock.advance(1);
    expect((await admin(stack, root.cookie, 'PATCH', `/api/admin/offers/${code}`, { advertised: true })).status).toBe(200);
    const codeHistory = await entries(root.cookie, `model=discountcode&objectId=${code}`);
    expect(codeHistory.map((e) => e.changes)).toEqual([{ advertised: [false, true] }, { active: [true, false], maxUses: [null, 5] }]);
    // view_offer shows a code's history only while it is an offer (advertised), as it shows only offers.
    const offerViewer = await staffSession(stack, { permissions: ['view_offer'] });
    expect((await entries(offerViewer.cookie, `model=discountcode&objectId=${code}`)).length).toBe(2);
    const hidden = `HID${randomUUID().slice(0, 6).toUpperCase()}`;
    await saveDiscountCode(stack.deps.db, { code: hidden, title: 'Staff only', percent: 50, advertised: false, active: true });
    const refused = await admin(stack, offerViewer.cookie, 'GET', `/api/admin/history?model=discountcode&objectId=${hidden}`);
    expect([refused.status, refused.body.code]).toEqual([403, 'permission_denied']);
    const exported = await admin(stack, offerViewer.cookie, 'GET', `/api/admin/history/export.csv?model=discountcode&objectId=${hidden}`);
    expect(exported.status).toBe(403);

    const learner = await signIn(stack);
    const ticket = await call(stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject: 'Help', text: 'Where?' } });
    await admin(stack, root.cookie, 'POST', `/api/admin/tickets/${ticket.body.id}/messages`, { text: 'Here.' });
    stack.clock.advance(1);
    await admin(stack, root.cookie, 'POST', `/api/admin/tickets/${ticket.body.id}/close`);
    await admin(stack, root.cookie, 'POST', `/api/admin/tickets/${ticket.body.id}/close`); // closed already: nothing to record
    expect((await entries(root.cookie, `model=ticket&objectId=${ticket.body.id}`)).map((e) => [e.action, e.changes])).toEqual([
      ['close', { status: ['answered', 'closed'] }],
      ['reply', { status: ['open', 'answered'], messageCount: [1, 2] }],
    ]);

    const sent = await admin(stack, root.cookie, 'POST', '/api/admin/notifications', {
      userId: learner.userId,
      title: 'Hi',
      body: 'Welcome',
    });
    expect((await entries(root.cookie, `model=notification&objectId=${sent.body.id}`))[0]).toMatchObject({
      action: 'add',
      objectRepr: 'Hi',
    });

    const sessions = await admin(stack, root.cookie, 'GET', `/api/admin/sessions?userId=${learner.userId}`);
    expect((await admin(stack, root.cookie, 'DELETE', `/api/admin/sessions/${sessions.body.items[0].id}`)).status).toBe(204);
    const learnerHistory = await entries(root.cookie, `model=user&objectId=${learner.userId}`);
    expect(learnerHistory[0]).toMatchObject({ action: 'end_sessions', changes: { session: 'changed' } });
    expect(JSON.stringify(learnerHistory)).not.toContain(sessions.body.items[0].id.split('-').slice(1).join('-'));
  });

  it('filters by a time range (Tehran days or ISO times) and pages oldest first', async () => {
    stack.clock.set(Date.UTC(2027, 0, 10, 12, 0, 0));
    const root = await staffSession(stack, { isSuperuser: true });
    const made = await admin(stack, root.cookie, 'POST', '/api/admin/plans', { title: 'Jan', price: 1, durationDays: 1, aiDailyQuota: 0 });
    stack.clock.set(Date.UTC(2027, 0, 10, 23, 0, 0)); // 02:30 on the 11th in Tehran: the session lasts 12 hours
    await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${made.body.id}`, { price: 2 });
    const onDay = await entries(root.cookie, `model=plan&objectId=${made.body.id}&from=2027-01-10&to=2027-01-10`);
    expect(onDay.map((e) => e.action)).toEqual(['add']);
    const after = await entries(root.cookie, `model=plan&from=2027-01-10T20:00:00Z`);
    expect(after.map((e) => [e.action, e.objectId])).toEqual([['change', String(made.body.id)]]);
    const asc = await admin(stack, root.cookie, 'GET', `/api/admin/history?action=add&model=plan&from=2027-01-01&order=asc&limit=1`);
    expect(asc.body.items.map((e: Entry) => e.objectRepr)).toEqual(['Jan']);
  });

  it('refuses bad filters with 400 naming the field', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const cases: [string, string][] = [
      ['objectId=5', 'model'],
      ['model=planet', 'model'],
      ['action=fly', 'action'],
      ['from=2027-01-12&to=2027-01-10', 'to'],
      ['from=yesterday', 'from'],
      ['order=up', 'order'],
      ['cursor=abc', 'cursor'],
    ];
    for (const [query, field] of cases) {
      const res = await admin(stack, root.cookie, 'GET', `/api/admin/history?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('validation_error');
      expect(res.body.fields, query).toHaveProperty(field);
    }
  });
});
