/** The end of paid access when marketplace periods and paid days meet (period.ts; DESIGN §8 "Period truth"). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredSubscription } from '../auth';
import { DAY_MS, paidTimeLeft, sourceOf, withoutPaidDays, withoutStorePeriod, withPaidDays, withStorePeriod } from './period';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const plan = { planId: 1, planTitle: 'یک ماهه', aiDailyQuota: 4 };
const gateway = (expiresAt: number): StoredSubscription => ({ ...plan, expiresAt, source: 'gateway' });

describe('withStorePeriod', () => {
  it('ends a marketplace period where the marketplace says, whatever the plan’s days', () => {
    const after = withStorePeriod(undefined, plan, NOW + 2 * HOUR, NOW);
    expect(after).toEqual({ ...plan, expiresAt: NOW + 2 * HOUR, source: 'marketplace', storeUntil: NOW + 2 * HOUR, carriedMs: 0 });
  });

  it('holds the paid days a learner has behind the marketplace period, and a renewal moves both ends', () => {
    const first = withStorePeriod(gateway(NOW + 10 * DAY_MS), plan, NOW + 30 * DAY_MS, NOW);
    expect(first).toMatchObject({ storeUntil: NOW + 30 * DAY_MS, carriedMs: 10 * DAY_MS, expiresAt: NOW + 40 * DAY_MS });
    const renewed = withStorePeriod(first, plan, NOW + 60 * DAY_MS, NOW + 29 * DAY_MS);
    expect(renewed).toMatchObject({ storeUntil: NOW + 60 * DAY_MS, carriedMs: 10 * DAY_MS, expiresAt: NOW + 70 * DAY_MS });
  });

  it('starts from nothing after an expired subscription, and keeps the later of two running marketplace periods', () => {
    expect(withStorePeriod(gateway(NOW - DAY_MS), plan, NOW + DAY_MS, NOW)).toMatchObject({ carriedMs: 0, expiresAt: NOW + DAY_MS });
    const long = withStorePeriod(undefined, plan, NOW + 90 * DAY_MS, NOW);
    expect(withStorePeriod(long, plan, NOW + 30 * DAY_MS, NOW).expiresAt).toBe(NOW + 90 * DAY_MS);
  });

  it('counts held days used up in a gap after the period (the marketplace billed late)', () => {
    const sub = withStorePeriod(gateway(NOW + 10 * DAY_MS), plan, NOW + DAY_MS, NOW); // ends NOW + 11 days
    const late = withStorePeriod(sub, plan, NOW + 40 * DAY_MS, NOW + 3 * DAY_MS); // 2 held days used after NOW + 1 day
    expect(late).toMatchObject({ carriedMs: 8 * DAY_MS, expiresAt: NOW + 48 * DAY_MS });
  });
});

describe('withPaidDays', () => {
  it('extends an active subscription from its end, else starts now', () => {
    expect(withPaidDays(gateway(NOW + DAY_MS), plan, 30, NOW).expiresAt).toBe(NOW + 31 * DAY_MS);
    expect(withPaidDays(gateway(NOW - DAY_MS), plan, 30, NOW).expiresAt).toBe(NOW + 30 * DAY_MS);
    // Days bought outright are paid days wherever they were bought (an in-app product too): no marketplace period governs them.
    expect(withPaidDays(undefined, plan, 30, NOW)).toEqual({ ...plan, expiresAt: NOW + 30 * DAY_MS, source: 'gateway' });
  });

  it('holds days bought during a marketplace period behind it', () => {
    const store = withStorePeriod(undefined, plan, NOW + 5 * DAY_MS, NOW);
    const after = withPaidDays(store, plan, 30, NOW);
    expect(after).toMatchObject({
      source: 'marketplace',
      storeUntil: NOW + 5 * DAY_MS,
      carriedMs: 30 * DAY_MS,
      expiresAt: NOW + 35 * DAY_MS,
    });
    expect(withoutPaidDays(after, 30)).toMatchObject({ carriedMs: 0, expiresAt: NOW + 5 * DAY_MS });
    expect(withoutPaidDays(gateway(NOW + DAY_MS), 1)).toBeNull();
  });
});

describe('withoutStorePeriod', () => {
  it('ends access at the marketplace’s end; held days start there and the source becomes gateway', () => {
    const sub = withStorePeriod(gateway(NOW + 10 * DAY_MS), plan, NOW + 30 * DAY_MS, NOW);
    expect(withoutStorePeriod(sub, NOW + DAY_MS)).toEqual({ ...plan, source: 'gateway', expiresAt: NOW + 11 * DAY_MS });
    const bare = withStorePeriod(undefined, plan, NOW + 30 * DAY_MS, NOW);
    expect(withoutStorePeriod(bare, NOW + HOUR)).toEqual({ ...plan, source: 'marketplace', expiresAt: NOW + HOUR });
  });

  it('keeps another running marketplace period, and cuts a subscription written before period truth', () => {
    const sub = withStorePeriod(withStorePeriod(undefined, plan, NOW + 20 * DAY_MS, NOW), plan, NOW + 30 * DAY_MS, NOW);
    expect(withoutStorePeriod(sub, NOW + DAY_MS, NOW + 20 * DAY_MS)).toMatchObject({
      storeUntil: NOW + 20 * DAY_MS,
      expiresAt: NOW + 20 * DAY_MS,
    });
    expect(withoutStorePeriod({ ...plan, expiresAt: NOW + 30 * DAY_MS }, NOW + DAY_MS)).toEqual({ ...plan, expiresAt: NOW + DAY_MS });
  });

  it('never gives more time than the learner had, and keeps the held days (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 60 * 24 }),
        fc.integer({ min: -48, max: 60 * 24 }),
        (heldDays, periodHours, endHours) => {
          const sub = withStorePeriod(gateway(NOW + heldDays * DAY_MS), plan, NOW + periodHours * HOUR, NOW);
          expect(sub.expiresAt).toBe(NOW + periodHours * HOUR + heldDays * DAY_MS);
          const endsAt = NOW + endHours * HOUR;
          const after = withoutStorePeriod(sub, endsAt);
          expect(after.expiresAt).toBeLessThanOrEqual(sub.expiresAt);
          expect(after.storeUntil).toBeUndefined();
          expect(paidTimeLeft(after, endsAt)).toBe(Math.min(heldDays * DAY_MS, Math.max(0, sub.expiresAt - endsAt)));
          expect(sourceOf(after)).toBe(paidTimeLeft(sub, endsAt) > 0 ? 'gateway' : 'marketplace');
        },
      ),
    );
  });
});
