/**
 * Issue 25 §3 (DESIGN §9 bulk actions): closing tickets, (de)activating discount codes and offers and ending
 * learners' sign-ins and staff members' sessions, for many rows at once, each row on its own: its own conditional write and history entry, a
 * result per row, one failing row reported while the others are applied; at most 100 rows a request.
 */
import { randomUUID } from 'node:crypto';
import { saveDiscountCode } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { admin, staffSession } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

describe('bulk actions', () => {
  const stack = useStack({ now: NOW });

  it('closes the selected tickets, reporting the one that does not exist and the one closed already', async () => {
    const closer = await staffSession(stack, { permissions: ['change_ticket', 'view_ticket'] });
    const learner = await signIn(stack);
    const ids: number[] = [];
    for (const subject of ['One', 'Two', 'Three']) {
      ids.push((await call(stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject, text: '?' } })).body.id);
    }
    expect((await admin(stack, closer.cookie, 'POST', `/api/admin/tickets/${ids[2]}/close`)).status).toBe(200);
    const missing = 987_654;
    const res = await admin(stack, closer.cookie, 'POST', '/api/admin/tickets/bulk', {
      ids: [ids[0], missing, ids[1], ids[2], ids[0]],
      action: 'close',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toEqual([
      { id: ids[0], ok: true, changed: true },
      { id: missing, ok: false, code: 'not_found', detail: expect.any(String) },
      { id: ids[1], ok: true, changed: true },
      { id: ids[2], ok: true, changed: false },
    ]);
    expect(res.body.summary).toEqual({ changed: 2, unchanged: 1, failed: 1 });
    for (const id of ids) expect((await admin(stack, closer.cookie, 'GET', `/api/admin/tickets/${id}`)).body.status).toBe('closed');
    // One history entry per row that changed, by the staff member who acted.
    const root = await staffSession(stack, { isSuperuser: true });
    const closes = (await admin(stack, root.cookie, 'GET', `/api/admin/history?action=close&staff=${closer.username}`)).body.items;
    expect(closes.map((e: { objectId: string }) => Number(e.objectId)).sort()).toEqual([ids[0], ids[1], ids[2]].sort());
  });

  it('deactivates and activates discount codes (superuser) and withdraws and advertises offers (change_offer)', async () => {
    const codes = [`BLK${randomUUID().slice(0, 5).toUpperCase()}`, `BLK${randomUUID().slice(0, 5).toUpperCase()}`];
    for (const code of codes) await saveDiscountCode(stack.deps.db, { code, title: code, percent: 10, advertised: true, active: true });
    const root = await staffSession(stack, { isSuperuser: true });
    const off = await admin(stack, root.cookie, 'POST', '/api/admin/discount-codes/bulk', {
      ids: [codes[0]?.toLowerCase(), 'NOPE-NOT-HERE', codes[1]],
      action: 'deactivate',
    });
    expect(off.body.results.map((r: { ok: boolean; code?: string }) => r.code ?? r.ok)).toEqual([true, 'not_found', true]);
    for (const code of codes) expect((await admin(stack, root.cookie, 'GET', `/api/admin/discount-codes/${code}`)).body.active).toBe(false);
    stack.clock.advance(1); // entries of one millisecond have no order among them
    const again = await admin(stack, root.cookie, 'POST', '/api/admin/discount-codes/bulk', { ids: codes, action: 'deactivate' });
    expect(again.body.summary).toEqual({ changed: 0, unchanged: 2, failed: 0 });
    expect(
      (await admin(stack, root.cookie, 'POST', '/api/admin/discount-codes/bulk', { ids: codes, action: 'activate' })).body.summary,
    ).toEqual({
      changed: 2,
      unchanged: 0,
      failed: 0,
    });

    stack.clock.advance(1);
    const marketer = await staffSession(stack, { permissions: ['change_offer', 'view_offer'] });
    const withdrawn = await admin(stack, marketer.cookie, 'POST', '/api/admin/offers/bulk', { ids: [codes[0]], action: 'deactivate' });
    expect(withdrawn.body.results).toEqual([{ id: codes[0], ok: true, changed: true }]);
    expect((await call(stack, 'GET', '/api/offers')).body.items.map((o: { code: string }) => o.code)).not.toContain(codes[0]);
    const history = (await admin(stack, root.cookie, 'GET', `/api/admin/history?model=discountcode&objectId=${codes[0]}`)).body.items;
    expect(history.map((e: { staff: string; changes: unknown }) => [e.staff, e.changes])).toEqual([
      [marketer.username, { advertised: [true, false] }],
      [root.username, { active: [false, true] }],
      [root.username, { active: [true, false] }],
    ]);
    // Codes are changed by superusers only.
    expect((await admin(stack, marketer.cookie, 'POST', '/api/admin/discount-codes/bulk', { ids: codes, action: 'activate' })).status).toBe(
      403,
    );
  });

  it('ends the selected learners’ sign-ins: their tokens stop working, a learner without one is unchanged', async () => {
    const [a, b] = [await signIn(stack), await signIn(stack)];
    const root = await staffSession(stack, { isSuperuser: true });
    const first = await admin(stack, root.cookie, 'POST', '/api/admin/users/bulk', {
      ids: [a.userId, b.userId, 99_999_999],
      action: 'end_sessions',
    });
    expect(first.body.results.map((r: { changed?: boolean; code?: string }) => r.code ?? r.changed)).toEqual([true, true, 'not_found']);
    for (const learner of [a, b]) {
      expect((await call(stack, 'GET', '/api/hearts', { token: learner.accessToken })).status).toBe(401);
      expect((await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: learner.refreshToken } })).status).toBe(401);
    }
    const second = await admin(stack, root.cookie, 'POST', '/api/admin/users/bulk', { ids: [a.userId], action: 'end_sessions' });
    expect(second.body.results).toEqual([{ id: a.userId, ok: true, changed: false }]);
    const history = (await admin(stack, root.cookie, 'GET', `/api/admin/history?model=user&objectId=${a.userId}`)).body.items;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: 'end_sessions', staff: root.username, changes: { session: 'changed' } });
  });

  it('ends every session of the selected staff members (names in any case), refusing the caller’s own row and reporting one gone', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const [a, b] = [
      await staffSession(stack, { permissions: ['view_ticket'] }),
      await staffSession(stack, { permissions: ['view_ticket'] }),
    ];
    const res = await admin(stack, root.cookie, 'POST', '/api/admin/staff/bulk', {
      ids: [a.username.toUpperCase(), b.username, root.username, 'nobody-here'],
      action: 'end_sessions',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { changed?: boolean; code?: string }) => r.code ?? r.changed)).toEqual([
      true,
      true,
      'validation_error',
      'not_found',
    ]);
    expect(res.body.summary).toEqual({ changed: 2, unchanged: 0, failed: 2 });
    // Their sessions are refused from now on; the caller's own goes on.
    for (const member of [a, b]) expect((await admin(stack, member.cookie, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await admin(stack, root.cookie, 'GET', '/api/admin/me')).status).toBe(200);
    // They may sign in again (the password stays), and each row has its history entry.
    expect((await call(stack, 'POST', '/api/admin/login', { body: { username: a.username, password: a.password } })).status).toBe(200);
    const history = (await admin(stack, root.cookie, 'GET', `/api/admin/history?model=staff&objectId=${b.username}`)).body.items;
    expect(history.filter((h: { action: string }) => h.action === 'end_sessions')).toEqual([
      expect.objectContaining({ staff: root.username, objectId: b.username }),
    ]);
  });

  it('refuses more than 100 rows, no rows, an unknown action and ids of the wrong kind (400, nothing applied)', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const learner = await signIn(stack);
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    const cases: [string, unknown, string][] = [
      ['/api/admin/tickets/bulk', { ids: many, action: 'close' }, 'ids'],
      ['/api/admin/tickets/bulk', { ids: [], action: 'close' }, 'ids'],
      ['/api/admin/tickets/bulk', { ids: [1], action: 'delete' }, 'action'],
      ['/api/admin/users/bulk', { ids: ['۱۲'], action: 'end_sessions' }, 'ids'],
      ['/api/admin/users/bulk', { ids: [learner.userId], action: 'end_sessions', all: true }, 'all'],
      ['/api/admin/offers/bulk', { ids: [''], action: 'activate' }, 'ids'],
      ['/api/admin/staff/bulk', { ids: [7], action: 'end_sessions' }, 'ids'],
      ['/api/admin/staff/bulk', { ids: ['someone'], action: 'deactivate' }, 'action'],
    ];
    for (const [path, body, field] of cases) {
      const res = await admin(stack, root.cookie, 'POST', path, body);
      expect([res.status, res.body.code], res.text).toEqual([400, 'validation_error']);
      expect(
        Object.keys(res.body.fields).some((f) => f === field || f.startsWith(`${field}.`)),
        res.text,
      ).toBe(true);
    }
    expect((await call(stack, 'GET', '/api/hearts', { token: learner.accessToken })).status).toBe(200);
  });
});
