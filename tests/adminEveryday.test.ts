/**
 * Issue 25 §5: the staff's everyday tools. Orders found by the public id staff see, by order id or invoice number,
 * and within a creation-time range, oldest first when asked; tickets and payment events within a time range; lists
 * read whole searched and sorted by any column; learners oldest or newest first; a learner's tutor usage; changing one's own password (the current one
 * required; other sessions end, this one continues).
 */
import { createTicket } from '@mathisland/core/support';
import { describe, expect, it } from 'vitest';
import { admin, buyAndPay, PLAN_30, PLAN_90, purchase, staffSession } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const DAY_MS = 86_400_000;
const ids = (res: { body: { items: { id: number | string }[] } }) => res.body.items.map((i) => i.id);

describe('everyday tools', () => {
  const stack = useStack({ now: NOW });

  it('filters orders by the buyer’s public id, by id or invoice number, and by creation time, in either order', async () => {
    stack.clock.set(NOW - 3 * DAY_MS);
    const buyer = await signIn(stack);
    const old = (await buyAndPay(stack, buyer, PLAN_30)).orderId;
    stack.clock.set(NOW);
    const again = await signIn(stack, buyer.phone);
    const fresh = (await purchase(stack, again, { planId: PLAN_90, paymentMethod: 'gateway' })).body.orderId;
    const other = (await purchase(stack, await signIn(stack), { planId: PLAN_90, paymentMethod: 'gateway' })).body.orderId;
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const publicId = (await admin(stack, cookie, 'GET', `/api/admin/users/${buyer.userId}`)).body.publicId as string;

    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?userPublicId=${publicId.toLowerCase()}`))).toEqual([fresh, old]);
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?q=${publicId}&order=asc`))).toEqual([old, fresh]);
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?q=${other}`))).toEqual([other]);
    const invoice = (await admin(stack, cookie, 'GET', `/api/admin/orders/${old}`)).body.invoiceNumber as string;
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?q=${invoice}`))).toEqual([old]);
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?q=${invoice}&status=pending`))).toEqual([]);
    expect(ids(await admin(stack, cookie, 'GET', '/api/admin/orders?q=nothing-like-this'))).toEqual([]);
    expect(ids(await admin(stack, cookie, 'GET', '/api/admin/orders?userPublicId=User000000'))).toEqual([]);
    // Both buyer filters apply together: another learner's order, or another learner in `q`, finds nothing.
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?userPublicId=${publicId}&q=${other}`))).toEqual([]);
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?userPublicId=${publicId}&q=${old}`))).toEqual([old]);
    const otherPublicId = (await admin(stack, cookie, 'GET', `/api/admin/orders/${other}`)).body.userPublicId as string;
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?userPublicId=${publicId}&q=${otherPublicId}`))).toEqual([]);
    const csv = await admin(stack, cookie, 'GET', `/api/admin/orders/export.csv?userPublicId=${publicId}&q=${other}`);
    expect(csv.text.trim().split('\n')).toHaveLength(1); // the header only
    const lastDays = await admin(stack, cookie, 'GET', '/api/admin/orders?from=2026-11-19&limit=100');
    expect(ids(lastDays)).toEqual(expect.arrayContaining([fresh, other]));
    expect(ids(lastDays)).not.toContain(old);
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/orders?userId=${buyer.userId}&to=2026-11-18`))).toEqual([old]);
    const events = await admin(stack, cookie, 'GET', '/api/admin/payment-events?to=2026-11-18&limit=100');
    expect(events.body.items.length).toBeGreaterThan(0);
    expect(events.body.items.every((e: { orderId: number }) => e.orderId === old)).toBe(true);
    const asc = await admin(stack, cookie, 'GET', `/api/admin/payment-events?orderId=${old}&order=asc`);
    const desc = await admin(stack, cookie, 'GET', `/api/admin/payment-events?orderId=${old}`);
    expect(ids(asc).length).toBeGreaterThan(1);
    expect(ids(asc)).toEqual([...ids(desc)].reverse());
    const bad = await admin(stack, cookie, 'GET', '/api/admin/orders?from=2026-11-20&to=2026-11-01');
    expect([bad.status, Object.keys(bad.body.fields)]).toEqual([400, ['to']]);
  });

  it('lists learners newest or oldest first (the users index’s order, by creation), paging and searching either way', async () => {
    const sessions = [await signIn(stack), await signIn(stack), await signIn(stack)];
    const learners = sessions.map((l) => l.userId);
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const all = async (order: string, q = '') => {
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const res = await admin(stack, cookie, 'GET', `/api/admin/users?limit=2${order}${q}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, res.text).toBe(200);
        seen.push(...(ids(res) as number[]));
        cursor = res.body.nextCursor ?? undefined;
      } while (cursor);
      return seen.filter((id) => learners.includes(id));
    };
    expect(await all('')).toEqual([...learners].reverse());
    expect(await all('&sort=createdAt&order=desc')).toEqual([...learners].reverse());
    expect(await all('&sort=createdAt&order=asc')).toEqual(learners);
    expect(await all('&sort=createdAt&order=asc', `&q=${sessions[0]!.phone.slice(1, 7)}`)).toEqual(learners);
    const csv = (await admin(stack, cookie, 'GET', '/api/admin/users/export.csv?sort=createdAt&order=asc')).text;
    const exported = csv
      .split('\r\n')
      .slice(1, -1)
      .map((line) => Number(line.split(',')[0]))
      .filter((id) => learners.includes(id));
    expect(exported).toEqual(learners);
    for (const bad of ['sort=xp', 'order=sideways'])
      expect((await admin(stack, cookie, 'GET', `/api/admin/users?${bad}`)).status).toBe(400);
  });

  it('filters tickets by their latest activity and searches and sorts the lists read whole', async () => {
    const learner = await signIn(stack);
    stack.clock.set(NOW - 5 * DAY_MS);
    const early = (await createTicket(stack.deps, { id: learner.userId }, { subject: 'Early', text: '?' })).id;
    stack.clock.set(NOW);
    const late = (await createTicket(stack.deps, { id: learner.userId }, { subject: 'Late', text: '?' })).id;
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    expect(ids(await admin(stack, cookie, 'GET', '/api/admin/tickets?to=2026-11-16&limit=100'))).toEqual([early]);
    expect(ids(await admin(stack, cookie, 'GET', `/api/admin/tickets?userId=${learner.userId}&order=asc`))).toEqual([early, late]);

    for (const title of ['Zeta plan', 'alpha plan']) {
      await admin(stack, cookie, 'POST', '/api/admin/plans', { title, price: 5, durationDays: 1, aiDailyQuota: 0 });
    }
    const found = await admin(stack, cookie, 'GET', '/api/admin/plans?q=PLAN&sort=title');
    expect(found.body.items.map((p: { title: string }) => p.title)).toEqual(['alpha plan', 'Zeta plan']);
    expect(found.body.total).toBe(2);
    const byPrice = (await admin(stack, cookie, 'GET', '/api/admin/plans?sort=price&order=desc&limit=100')).body.items.map(
      (p: { price: number }) => p.price,
    );
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    expect((await admin(stack, cookie, 'GET', '/api/admin/plans?sort=colour')).status).toBe(400);
    const csv = await admin(stack, cookie, 'GET', '/api/admin/plans/export.csv?q=plan&sort=title');
    expect(
      csv.text
        .split('\r\n')
        .slice(1, 3)
        .map((l) => l.split(',')[1]),
    ).toEqual(['alpha plan', 'Zeta plan']);
  });

  it('shows a learner’s tutor usage with view_tutorusage', async () => {
    const learner = await signIn(stack);
    const asked = await call(stack, 'POST', '/api/ai/ask', { token: learner.accessToken, body: { userQuestion: 'What is 3/4 + 1/4?' } });
    expect(asked.status, asked.text).toBe(200);
    const both = await staffSession(stack, { permissions: ['view_tutorusage'] });
    const usage = await admin(stack, both.cookie, 'GET', `/api/admin/users/${learner.userId}/tutor-usage`);
    expect(usage.body.items[0]).toMatchObject({ day: '2026-11-20', questions: 1 });
    const userOnly = await staffSession(stack, { permissions: ['view_user'] });
    const denied = await admin(stack, userOnly.cookie, 'GET', `/api/admin/users/${learner.userId}/tutor-usage`);
    expect([denied.status, denied.body.code]).toEqual([403, 'permission_denied']);
    expect((await admin(stack, both.cookie, 'GET', '/api/admin/users/99999999/tutor-usage')).status).toBe(404);
    expect((await admin(stack, both.cookie, 'GET', '/api/admin/users/۱۲/tutor-usage')).body.code).toBe('invalid_id');
  });

  it('changes one’s own password with the current one: other sessions end, this browser continues', async () => {
    const member = await staffSession(stack, { permissions: ['view_order'] });
    const other = await call(stack, 'POST', '/api/admin/login', { body: { username: member.username, password: member.password } });
    const otherCookie = (other.headers.get('set-cookie') as string).split(';')[0] as string;
    const wrong = await admin(stack, member.cookie, 'POST', '/api/admin/me/password', {
      oldPassword: 'guess-guess',
      newPassword: 'a-new-long-password',
    });
    expect([wrong.status, wrong.body.code, Object.keys(wrong.body.fields)]).toEqual([400, 'validation_error', ['oldPassword']]);
    const same = await admin(stack, member.cookie, 'POST', '/api/admin/me/password', {
      oldPassword: member.password,
      newPassword: member.password,
    });
    expect(Object.keys(same.body.fields)).toEqual(['newPassword']);
    const changed = await admin(stack, member.cookie, 'POST', '/api/admin/me/password', {
      oldPassword: member.password,
      newPassword: 'a-new-long-password',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ username: member.username, permissions: ['view_order'] });
    const fresh = (changed.headers.get('set-cookie') as string).split(';')[0] as string;
    expect((await admin(stack, fresh, 'GET', '/api/admin/me')).status).toBe(200);
    expect((await admin(stack, member.cookie, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await admin(stack, otherCookie, 'GET', '/api/admin/me')).status).toBe(401);
    const signIn2 = await call(stack, 'POST', '/api/admin/login', { body: { username: member.username, password: 'a-new-long-password' } });
    expect(signIn2.status).toBe(200);
    const root = await staffSession(stack, { isSuperuser: true });
    const entry = (await admin(stack, root.cookie, 'GET', `/api/admin/history?model=staff&objectId=${member.username}&action=change`)).body
      .items[0];
    expect(entry).toMatchObject({ staff: member.username, changes: { password: 'changed' } });
    expect(JSON.stringify(entry)).not.toContain('a-new-long-password');
  });
});
