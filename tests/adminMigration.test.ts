/**
 * Migration `0003-admin-indexes` (issue 11): items written before the staff API (a user, a ticket, payment events,
 * a plan's orders) become visible to it; running it again changes nothing.
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
    await updateItem(db, { pk: `USER#${learner.userId}`, sk: 'PROFILE' }, 'REMOVE gsi2pk, gsi2sk');
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
});
