/**
 * Issue 25 §4 (DESIGN §9): the dashboard's charts read the day counters of the last Tehran days, each counted in the
 * transaction of its event (sign-in, new user, order created, order paid with its revenue), oldest day first, zeros
 * on quiet days, each day with its Jalali date.
 */
import { describe, expect, it } from 'vitest';
import { admin, buyAndPay, PLAN_30, staffSession } from './support/payments';
import { signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0); // 2026-11-20 11:30 Tehran
const DAY_MS = 86_400_000;

describe('dashboard charts', () => {
  const stack = useStack({ now: NOW });

  it('answers the last 30 Tehran days, oldest first, from the counters of each day', async () => {
    stack.clock.set(NOW - 2 * DAY_MS);
    const early = await signIn(stack);
    const { orderId } = await buyAndPay(stack, early, PLAN_30);
    expect(orderId).toBeGreaterThan(0);
    stack.clock.set(NOW);
    await signIn(stack);
    await signIn(stack);
    const { cookie } = await staffSession(stack);
    const res = await admin(stack, cookie, 'GET', '/api/admin/stats');
    expect(res.status, res.text).toBe(200);
    const days = res.body.days as {
      day: string;
      jalaliDay: string;
      signIns: number;
      newUsers: number;
      orders: number;
      paidOrders: number;
      revenue: number;
    }[];
    expect(days).toHaveLength(30);
    expect(days[0]?.day).toBe('2026-10-22');
    expect(days.at(-1)).toMatchObject({
      day: '2026-11-20',
      jalaliDay: '1405/08/29',
      signIns: 2,
      newUsers: 2,
      orders: 0,
      paidOrders: 0,
      revenue: 0,
    });
    const plan = (await admin(stack, (await staffSession(stack, { isSuperuser: true })).cookie, 'GET', `/api/admin/plans/${PLAN_30}`)).body;
    expect(days.at(-3)).toMatchObject({ day: '2026-11-18', signIns: 1, newUsers: 1, orders: 1, paidOrders: 1, revenue: plan.price });
    expect(days.at(-2)).toMatchObject({ day: '2026-11-19', signIns: 0, newUsers: 0, orders: 0, paidOrders: 0, revenue: 0 });
    const week = await admin(stack, cookie, 'GET', '/api/admin/stats?days=7');
    expect(week.body.days.map((d: { day: string }) => d.day)).toEqual([
      '2026-11-14',
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
    ]);
    for (const bad of ['days=401', 'days=abc', 'days=-3', 'days=۳۰']) {
      const refused = await admin(stack, cookie, 'GET', `/api/admin/stats?${bad}`);
      expect([refused.status, refused.body.code], bad).toEqual([400, 'validation_error']);
    }
  });
});
