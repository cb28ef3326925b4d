/**
 * Properties of the stored rules, run against the real code and DynamoDB Local (fast-check, seed-stable):
 * - streak days across Tehran midnight (`recordStreakDay` and `streakAt`, spec "Progress": one entry per Tehran
 *   day) with streak freezes (DESIGN §13), against an independent model counting Tehran days at +03:30;
 * - price and discount arithmetic of a purchase (docs/decisions.md "Payments": whole toman, the discount rounded
 *   down, the buyer pays the rest, a 100 % code pays the order at once) through `POST /api/subscription/purchase`,
 *   and the gateway is asked for exactly that amount in rial.
 * `FC_SEED` replays a failure, `FC_RUNS` runs more.
 */
import { fc } from '@fast-check/vitest';
import { findOrCreateUser, getUser } from '@mathisland/core/auth';
import { recordStreakDay, streakAt } from '@mathisland/core/progress';
import { getPlan, saveDiscountCode, savePlan } from '@mathisland/core/subscriptions';
import { uncounted } from '@mathisland/core/throttle';
import { describe, expect, it } from 'vitest';
import { openPayLink, PLAN_30, purchase } from './support/payments';
import { type Session, signIn, useStack } from './support/stack';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261123;
const runs = (ci: number) => Number(process.env.FC_RUNS ?? ci);
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The Tehran day number of an instant, counted independently of the calendar module. */
const dayNumber = (ms: number) => Math.floor((ms + 3.5 * HOUR) / DAY);

describe('streak days across Tehran midnight', () => {
  const stack = useStack();
  let phones = 0;

  /** Gaps between completions: minutes (same day, or just across midnight), about one, two or three days. */
  const gap = fc.oneof(
    fc.integer({ min: 60_000, max: 3 * HOUR }),
    fc.integer({ min: 20 * HOUR, max: 28 * HOUR }),
    fc.integer({ min: 44 * HOUR, max: 52 * HOUR }),
    fc.integer({ min: 68 * HOUR, max: 76 * HOUR }),
  );

  it('counts consecutive Tehran days, one per day, bridges missed days with freezes, and breaks when they run out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
        fc.array(gap, { minLength: 1, maxLength: 16 }),
        fc.integer({ min: 0, max: 4 * DAY }),
        async (offset, gaps, queryAfter) => {
          // Start around Tehran midnight (20:30 UTC) so that the gaps cross it often.
          let t = Date.UTC(2026, 10, 20, 20, 30) + offset;
          const { user } = await findOrCreateUser(stack.deps, `0913${String(phones++).padStart(7, '0')}`);
          // The model (DESIGN §13), independent of the code: one step per Tehran day with activity; each missed day
          // in between takes a freeze while the streak lasts, and the streak breaks when they run out; every 7th day
          // earns one, at most 2 held.
          const model = { current: 0, longest: 0, freezes: 0, last: undefined as number | undefined };
          const missedCover = (day: number) => {
            if (model.last === undefined) return;
            const missed = day - model.last - 1;
            if (missed <= 0 || model.current === 0) return;
            const used = Math.min(model.freezes, missed);
            model.freezes -= used;
            if (used < missed) model.current = 0;
          };
          for (const g of [0, ...gaps]) {
            t += g;
            stack.clock.set(t);
            const streak = await recordStreakDay(uncounted(stack.deps), user.id);
            const day = dayNumber(t);
            if (model.last !== day) {
              missedCover(day);
              model.current += 1;
              model.longest = Math.max(model.longest, model.current);
              if (model.current % 7 === 0 && model.freezes < 2) model.freezes += 1;
              model.last = day;
            }
            expect(streak).toMatchObject({ current: model.current, longest: model.longest, freezes: model.freezes, today: true });
          }
          // Read later: the chain holds through the next Tehran day, and further while freezes cover the missed days.
          const later = t + queryAfter;
          const stored = (await getUser(stack.deps.db, user.id))!;
          const missed = dayNumber(later) - (model.last as number) - 1;
          const kept = missed <= 0 || model.freezes >= missed;
          expect(streakAt(stored, later)).toMatchObject({
            current: kept ? model.current : 0,
            freezes: missed <= 0 ? model.freezes : Math.max(0, model.freezes - missed),
            today: missed === -1,
          });
        },
      ),
      { seed, numRuns: runs(25) },
    );
  });
});

describe('price and discount arithmetic', () => {
  const stack = useStack();
  let learner: Session | undefined;
  let bought = 0;
  let codes = 0;

  it('charges the list price less the discount rounded down, in whole toman, and asks the gateway for it in rial', async () => {
    const base = (await getPlan(stack.deps, PLAN_30))!;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1000, max: 100_000_000 }), fc.integer({ min: 1, max: 100 }), async (price, percent) => {
        // The purchase throttle allows 60 an hour per learner.
        if (!learner || bought++ % 20 === 0) learner = await signIn(stack);
        const planId = 1000 + codes;
        await savePlan(stack.deps.db, { ...base, id: planId, price, marketplaceSku: undefined });
        const code = `PROP${codes++}`;
        await saveDiscountCode(stack.deps.db, { code, title: 'property', percent, advertised: false, active: true });
        const res = await purchase(stack, learner, { planId, paymentMethod: 'gateway', discountCode: code });
        expect(res.status, res.text).toBe(201);
        const { listPrice, discount, amount } = res.body;
        expect(listPrice).toBe(price);
        expect(Number.isInteger(discount) && Number.isInteger(amount)).toBe(true);
        expect(discount).toBe(Math.floor((price * percent) / 100));
        expect(discount + amount).toBe(price);
        expect(amount).toBeGreaterThanOrEqual(0);
        expect(amount === 0).toBe(percent === 100);
        if (amount === 0) {
          expect(res.body.paymentUrl ?? null).toBeNull();
          return;
        }
        if (amount * 10 < 1000) return; // under the gateway's minimum of 1000 rial: not a price we sell
        const authority = (await openPayLink(res.body.paymentUrl)).split('/').at(-1) as string;
        expect(stack.gateway.payments.get(authority)).toMatchObject({ amount: amount * 10, currency: 'IRR' });
      }),
      { seed, numRuns: runs(20) },
    );
  });
});
