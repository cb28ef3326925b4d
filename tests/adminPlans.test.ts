/**
 * Staff plans (DESIGN §9 plans CRUD; docs/decisions.md "Plans with orders"): a plan id is never given twice, so a
 * discount code made for a deleted plan never discounts a new one and a new plan's history is its own; and a plan
 * change writes only what it changes, so a concurrent change (another staff member's, a learner's first order) is
 * kept or makes it read again, and its history entry names exactly what it replaced.
 */
import { deleteItem, getItem, ItemKey } from '@mathisland/core/db';
import { createPlan, getPlan, savePlan, updatePlan } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { commandOf, interleaved } from './support/interleave';
import { admin, PLAN_30, purchase, staffSession } from './support/payments';
import { signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const MINUTE = 60;
const COUNTER = { pk: 'COUNTER', sk: 'plan' };

type Entry = { staff: string; action: string; objectRepr: string; changes: Record<string, unknown> };

describe('staff plans', () => {
  const stack = useStack({ now: NOW });

  const newPlan = (cookie: string, title: string, extra: Record<string, unknown> = {}) =>
    admin(stack, cookie, 'POST', '/api/admin/plans', { title, price: 10_000, durationDays: 7, aiDailyQuota: 1, ...extra });

  /** A plan's own history (its page's history tab), newest first. */
  async function historyOf(cookie: string, planId: number): Promise<Entry[]> {
    const res = await admin(stack, cookie, 'GET', `/api/admin/history?model=plan&objectId=${planId}&limit=100`);
    expect(res.status, res.text).toBe(200);
    return res.body.items;
  }

  /** The ids of every plan stored now. */
  const storedIds = async (cookie: string): Promise<number[]> =>
    (await admin(stack, cookie, 'GET', '/api/admin/plans?limit=100')).body.items.map((p: { id: number }) => p.id);

  describe('ids', () => {
    it("never gives a deleted plan's id again: a code made for the deleted plan does not discount the new one", async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const mistake = await newPlan(root.cookie, 'Trial week (mistake)', { price: 5_000 });
      expect(mistake.status, mistake.text).toBe(201);
      const code = await admin(stack, root.cookie, 'POST', '/api/admin/discount-codes', {
        code: 'TRIAL90',
        title: 'Trial 90%',
        percent: 90,
        planIds: [mistake.body.id],
      });
      expect(code.status, code.text).toBe(201);
      stack.clock.advance(MINUTE); // entries of one millisecond have no order among them
      expect((await admin(stack, root.cookie, 'DELETE', `/api/admin/plans/${mistake.body.id}`)).status).toBe(204);
      stack.clock.advance(MINUTE);

      const yearly = await newPlan(root.cookie, 'Yearly', { price: 900_000, durationDays: 365, aiDailyQuota: 10 });
      expect(yearly.status, yearly.text).toBe(201);
      expect(yearly.body.id).toBeGreaterThan(mistake.body.id);
      const learner = await signIn(stack);
      const discounted = await purchase(stack, learner, { planId: yearly.body.id, paymentMethod: 'gateway', discountCode: 'TRIAL90' });
      expect(discounted.body.code).toBe('discount_invalid');
      expect((await historyOf(root.cookie, yearly.body.id)).map((e) => [e.action, e.objectRepr])).toEqual([['add', 'Yearly']]);
      expect((await historyOf(root.cookie, mistake.body.id)).map((e) => e.action)).toEqual(['delete', 'add']);
    });

    it('starts, on a table from before the id counter, above every plan stored or recorded as deleted', async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const first = await newPlan(root.cookie, 'Spring');
      const second = await newPlan(root.cookie, 'Summer');
      expect(second.body.id).toBe(first.body.id + 1);
      for (const made of [second, first])
        expect((await admin(stack, root.cookie, 'DELETE', `/api/admin/plans/${made.body.id}`)).status).toBe(204);
      expect(Math.max(...(await storedIds(root.cookie)))).toBeLessThan(first.body.id);
      // A table deployed before the counter: its plans and its staff history, no counter item.
      await deleteItem(stack.deps.db, COUNTER);

      const next = await newPlan(root.cookie, 'Autumn');
      expect(next.status, next.text).toBe(201);
      expect(next.body.id).toBe(second.body.id + 1);
      expect(await getItem(stack.deps.db, COUNTER, ItemKey.passthrough())).toMatchObject({ value: next.body.id });
      expect((await historyOf(root.cookie, next.body.id)).map((e) => e.objectRepr)).toEqual(['Autumn']);
    });

    it('counts a plan stored by other means (a seed), and its deletion moves the counter past it', async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const base = (await getPlan(stack.deps, PLAN_30))!;
      const highest = Math.max(...(await storedIds(root.cookie)));
      await savePlan(stack.deps.db, { ...base, id: highest + 50, marketplaceSku: undefined });
      const above = await newPlan(root.cookie, 'Above the seed');
      expect(above.body.id).toBe(highest + 51);

      await savePlan(stack.deps.db, { ...base, id: highest + 70, marketplaceSku: undefined });
      expect((await admin(stack, root.cookie, 'DELETE', `/api/admin/plans/${highest + 70}`)).status).toBe(204);
      const after = await newPlan(root.cookie, 'After the deleted seed');
      expect(after.body.id).toBe(highest + 71);
    });

    it('gives two creations that read the same counter different ids', async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      for (const counterExists of [true, false]) {
        if (!counterExists) await deleteItem(stack.deps.db, COUNTER);
        let rival: { id: number } | undefined;
        const deps = interleaved(stack.deps, commandOf('GetCommand', '"pk":"COUNTER","sk":"plan"'), async () => {
          const res = await newPlan(root.cookie, `Rival ${counterExists}`);
          expect(res.status, res.text).toBe(201);
          rival = res.body;
        });
        const mine = await createPlan(deps, { ...(await planInput()), title: `Mine ${counterExists}` }, root.username);
        expect(mine.id).toBe((rival?.id ?? 0) + 1);
        expect((await historyOf(root.cookie, mine.id)).map((e) => e.objectRepr)).toEqual([`Mine ${counterExists}`]);
      }
      const many = await Promise.all([1, 2, 3, 4, 5].map((n) => newPlan(root.cookie, `Batch ${n}`)));
      expect(many.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(many.map((r) => r.body.id)).size).toBe(5);
    });
  });

  describe('concurrent changes', () => {
    it("keeps the first order's hasOrders through a staff change read before it, so the plan still cannot be deleted", async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const made = await newPlan(root.cookie, 'Race');
      const planId: number = made.body.id;
      const learner = await signIn(stack);
      const deps = interleaved(stack.deps, planRead(planId), async () => {
        const bought = await purchase(stack, learner, { planId, paymentMethod: 'gateway' });
        expect(bought.status, bought.text).toBe(201);
      });
      const changed = await updatePlan(deps, planId, { price: 12_000 }, root.username);
      expect(changed.price).toBe(12_000);

      const now = await admin(stack, root.cookie, 'GET', `/api/admin/plans/${planId}`);
      expect(now.body).toMatchObject({ price: 12_000, hasOrders: true });
      const refused = await admin(stack, root.cookie, 'DELETE', `/api/admin/plans/${planId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('plan_has_orders');
      const changes = (await historyOf(root.cookie, planId)).filter((e) => e.action === 'change').map((e) => e.changes);
      expect(changes).toEqual([{ price: [10_000, 12_000] }]);
    });

    it("keeps another staff member's change of another field, and each entry names only its own change", async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const made = await newPlan(root.cookie, 'Lost');
      const planId: number = made.body.id;
      const deps = interleaved(stack.deps, planRead(planId), async () => {
        stack.clock.advance(MINUTE); // entries of one millisecond have no order among them
        const other = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${planId}`, { price: 99_000 });
        expect(other.status, other.text).toBe(200);
        stack.clock.advance(MINUTE);
      });
      await updatePlan(deps, planId, { title: 'Lost (renamed)', price: 10_000, badge: 'Top' }, 'second-staff');

      const now = await admin(stack, root.cookie, 'GET', `/api/admin/plans/${planId}`);
      expect(now.body).toMatchObject({ title: 'Lost (renamed)', price: 99_000, badge: 'Top' });
      expect((await historyOf(root.cookie, planId)).map((e) => [e.staff, e.action, e.changes])).toEqual([
        ['second-staff', 'change', { title: ['Lost', 'Lost (renamed)'], badge: [null, 'Top'] }],
        [root.username, 'change', { price: [10_000, 99_000] }],
        [root.username, 'add', expect.any(Object)],
      ]);
    });

    it('reads the plan again when another change of the same field won, and records what it really replaced', async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const made = await newPlan(root.cookie, 'Contested', { badge: null, features: ['Tutor'], marketplaceSku: 'mathisland_contested' });
      const planId: number = made.body.id;
      const deps = interleaved(stack.deps, planRead(planId), async () => {
        stack.clock.advance(MINUTE); // entries of one millisecond have no order among them
        const other = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${planId}`, {
          price: 99_000,
          badge: 'New',
          features: ['Tutor', 'Reports'],
        });
        expect(other.status, other.text).toBe(200);
        stack.clock.advance(MINUTE);
      });
      const mine = await updatePlan(
        deps,
        planId,
        { price: 12_000, badge: 'Best', features: ['Reports'], marketplaceSku: 'mathisland_contested_2' },
        'second-staff',
      );
      expect(mine).toMatchObject({ price: 12_000, badge: 'Best', features: ['Reports'], marketplaceSku: 'mathisland_contested_2' });
      expect((await historyOf(root.cookie, planId))[0]).toMatchObject({
        staff: 'second-staff',
        changes: {
          price: [99_000, 12_000],
          badge: ['New', 'Best'],
          features: [['Tutor', 'Reports'], ['Reports']],
          marketplaceSku: ['mathisland_contested', 'mathisland_contested_2'],
        },
      });
    });

    it('reads the plan again when another change took a SKU meanwhile, and frees the SKU the plan really held', async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const made = await newPlan(root.cookie, 'Relabelled');
      const planId: number = made.body.id;
      const deps = interleaved(stack.deps, planRead(planId), async () => {
        stack.clock.advance(MINUTE);
        const other = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${planId}`, { marketplaceSku: 'mathisland_first' });
        expect(other.status, other.text).toBe(200);
        stack.clock.advance(MINUTE);
      });
      expect((await updatePlan(deps, planId, { marketplaceSku: 'mathisland_second' }, 'second-staff')).marketplaceSku).toBe(
        'mathisland_second',
      );
      expect((await historyOf(root.cookie, planId))[0]?.changes).toEqual({ marketplaceSku: ['mathisland_first', 'mathisland_second'] });
      // The SKU it replaced is free again; the one it took is held.
      const elsewhere = await newPlan(root.cookie, 'Elsewhere', { marketplaceSku: 'mathisland_first' });
      expect(elsewhere.status, elsewhere.text).toBe(201);
      const taken = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${elsewhere.body.id}`, {
        marketplaceSku: 'mathisland_second',
      });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('sku_taken');
    });

    it('writes nothing, and records nothing, for a change that changes nothing', async () => {
      const root = await staffSession(stack, { isSuperuser: true });
      const made = await newPlan(root.cookie, 'Same', { badge: 'Hot' });
      const before = await historyOf(root.cookie, made.body.id);
      stack.clock.advance(MINUTE);
      const same = await admin(stack, root.cookie, 'PATCH', `/api/admin/plans/${made.body.id}`, {
        title: ' Same ',
        price: 10_000,
        badge: 'Hot',
        marketplaceSku: null,
        marketplaceProductType: 'subscription',
      });
      expect(same.status, same.text).toBe(200);
      expect(same.body).toEqual(made.body);
      expect(await historyOf(root.cookie, made.body.id)).toEqual(before);
    });
  });

  /** The fields of a new plan, as `createPlan` takes them. */
  async function planInput() {
    const { id: _id, hasOrders: _orders, ...rest } = (await getPlan(stack.deps, PLAN_30))!;
    return { ...rest, marketplaceSku: null, marketplaceProductType: 'subscription' as const, badge: null };
  }
});

/** A read of plan `planId`'s item (where a staff change starts). */
const planRead = (planId: number) => commandOf('GetCommand', `"sk":"PLAN#${String(planId).padStart(6, '0')}"`);
