/**
 * Migration `0003-admin-indexes` (issue 11): items written before the staff API (a user, a ticket, payment events,
 * a plan's orders) become visible to it; running it again changes nothing. Migration `0007-user-directory` (issue 30):
 * users listed through their own user item in gsi2 `USERS` (as 0003 left them) are listed through a directory entry,
 * once, and the user item leaves the index.
 */
import { deleteItem, ItemKey, queryAll, updateItem } from '@mathisland/core/db';
import { applyMigrations, migrationKey } from '@mathisland/core/migrations';
import { describe, expect, it } from 'vitest';
import { admin, buyAndPay, PLAN_180, staffSession } from './support/payments';
import { call, signIn, useStack } from './support/stack';

describe('migration 0003-admin-indexes', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 20, 8, 0) });

  it('backfills the users, tickets and payment events indexes and marks ordered plans', async () => {
    const db = stack.deps.db;
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const learner = await signIn(stack);
    const { orderId } = await buyAndPay(stack, learner, PLAN_180);
    const ticket = (
      await call(stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject: 'Old', text: 'From before' } })
    ).body;

    // Make them look as issue 4 and 3 wrote them.
    await deleteItem(db, { pk: `USER#${learner.userId}`, sk: 'DIRECTORY' });
    await updateItem(db, { pk: `USER#${learner.userId}`, sk: `TICKET#${String(ticket.id).padStart(10, '0')}` }, 'REMOVE gsi2pk, gsi2sk');
    const events = await queryAll(db, { partition: `ORDER#${orderId}`, sortKey: { beginsWith: 'EVENT#' } }, ItemKey);
    for (const key of events) await updateItem(db, key, 'REMOVE id, gsi1pk, gsi1sk');
    await updateItem(db, { pk: 'PLAN', sk: `PLAN#${String(PLAN_180).padStart(6, '0')}` }, 'REMOVE hasOrders');

    const listed = async () => ({
      users: (await admin(stack, cookie, 'GET', '/api/admin/users?limit=100')).body.items.map((u: { id: number }) => u.id),
      ticket: (await admin(stack, cookie, 'GET', `/api/admin/tickets/${ticket.id}`)).status,
      events: (await admin(stack, cookie, 'GET', '/api/admin/payment-events?limit=100')).body.items.filter(
        (e: { orderId: number }) => e.orderId === orderId,
      ).length,
    });
    const before = await listed();
    expect(before.users).not.toContain(learner.userId);
    expect(before.ticket).toBe(404);
    expect(before.events).toBe(0);

    await deleteItem(db, migrationKey('0003-admin-indexes'));
    expect(await applyMigrations(db)).toEqual(['0003-admin-indexes']);
    const after = await listed();
    expect(after.users).toContain(learner.userId);
    expect(after.ticket).toBe(200);
    expect(after.events).toBe(events.length);
    const planDelete = await admin(stack, cookie, 'DELETE', `/api/admin/plans/${PLAN_180}`);
    expect(planDelete.status).toBe(409);
    expect(await applyMigrations(db)).toEqual([]);
  });

  it('moves the staff list of learners from the user items to directory entries, each learner listed once', async () => {
    const db = stack.deps.db;
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const learners = [await signIn(stack), await signIn(stack)];
    await call(stack, 'PATCH', '/api/user/profile', { token: learners[0]?.accessToken, body: { displayName: 'Directory' } });
    // As 0003 left them: the user item in gsi2 USERS, no directory entry.
    for (const l of learners) {
      await deleteItem(db, { pk: `USER#${l.userId}`, sk: 'DIRECTORY' });
      await updateItem(db, { pk: `USER#${l.userId}`, sk: 'PROFILE' }, 'SET gsi2pk = :pk, gsi2sk = :sk', {
        values: { ':pk': 'USERS', ':sk': String(l.userId).padStart(12, '0') },
      });
    }
    const ids = async (query = '') =>
      (await admin(stack, cookie, 'GET', `/api/admin/users?limit=100${query}`)).body.items.map((u: { id: number }) => u.id);

    await deleteItem(db, migrationKey('0007-user-directory'));
    expect(await applyMigrations(db)).toEqual(['0007-user-directory']);
    const listed = await ids();
    for (const l of learners) expect(listed.filter((id: number) => id === l.userId)).toEqual([l.userId]);
    expect(await ids('&q=Directory')).toEqual([learners[0]?.userId]);
    const users = await queryAll(db, { index: 'gsi2', partition: 'USERS' }, ItemKey);
    expect(users.every((key) => key.sk === 'DIRECTORY')).toBe(true);
    expect(await applyMigrations(db)).toEqual([]);
  });
});
