/**
 * The end of a learner's paid access when marketplace periods and paid days meet (DESIGN §8 "Period truth";
 * docs/decisions.md "Payments"). Pure arithmetic on the stored subscription (auth's `StoredSubscription`); times
 * are epoch ms.
 *
 * - A marketplace subscription's paid period ends where the marketplace says (`validUntil`), never at "now + the
 *   plan's days": while one runs, the subscription carries `storeUntil` (the latest `validUntil` of the learner's
 *   running marketplace subscriptions) and `source: 'marketplace'`.
 * - Paid days (a gateway order, an in-app marketplace product, a 100 % code) are whole days bought outright. Days
 *   the learner already holds when a marketplace period starts are not lost under it: they wait behind it
 *   (`carriedMs`), so `expiresAt = storeUntil + carriedMs`, and each renewal moves both ends. Days bought while a
 *   marketplace period runs join them. When the marketplace period ends (refunded, cancelled, not renewed), the
 *   days held start from that end.
 * - Without a running marketplace period, paid days extend an active subscription from its end, else start now
 *   (spec "Subscription").
 */
import type { StoredSubscription } from '../auth';

/** One day, ms: a plan's `durationDays` is granted as that many 24-hour days. */
export const DAY_MS = 86_400_000;

export type SubscriptionSource = NonNullable<StoredSubscription['source']>;

/** The plan snapshot an order grants (order.entity.ts). */
export interface PlanSnapshot {
  planId: number;
  planTitle: string;
  aiDailyQuota: number;
}

const planOf = (plan: PlanSnapshot) => ({ planId: plan.planId, planTitle: plan.planTitle, aiDailyQuota: plan.aiDailyQuota });

/** What set the end of `subscription` (items written before `source` existed read as `gateway`). */
export const sourceOf = (subscription: StoredSubscription): SubscriptionSource =>
  subscription.storeUntil !== undefined ? 'marketplace' : (subscription.source ?? 'gateway');

/**
 * Paid-days time of `subscription` still unused at `at`: with a running marketplace period, the days held behind it
 * (less what a gap after its end used up); without one, whatever is left of it.
 */
export function paidTimeLeft(subscription: StoredSubscription, at: number): number {
  const left = subscription.expiresAt - at;
  if (subscription.storeUntil === undefined) return Math.max(0, left);
  return Math.max(0, Math.min(subscription.carriedMs ?? 0, left));
}

/**
 * The subscription after a marketplace period ending `validUntil` was paid (a verification or a renewal) at `now`:
 * the period runs to the later of it and another running marketplace period; the days held (or the days `current`
 * still had) follow it.
 */
export function withStorePeriod(current: StoredSubscription | undefined, plan: PlanSnapshot, validUntil: number, now: number) {
  const storeUntil = current?.storeUntil === undefined ? validUntil : Math.max(current.storeUntil, validUntil);
  const carriedMs = current ? paidTimeLeft(current, now) : 0;
  const after: StoredSubscription = { ...planOf(plan), expiresAt: storeUntil + carriedMs, source: 'marketplace', storeUntil, carriedMs };
  return after;
}

/**
 * The subscription after `days` paid days at `now`: from the end of an active subscription, else from now; with a
 * running marketplace period they are held behind it. Paid days are `source: 'gateway'` (the status's "paid days")
 * wherever they were bought: at the gateway, or in the marketplace as an in-app product, days bought outright that
 * no marketplace period governs (docs/api.md `source`).
 */
export function withPaidDays(current: StoredSubscription | undefined, plan: PlanSnapshot, days: number, now: number): StoredSubscription {
  const from = current && current.expiresAt > now ? current.expiresAt : now;
  const expiresAt = from + days * DAY_MS;
  if (current?.storeUntil === undefined) return { ...planOf(plan), expiresAt, source: 'gateway' };
  return { ...planOf(plan), expiresAt, source: 'marketplace', storeUntil: current.storeUntil, carriedMs: expiresAt - current.storeUntil };
}

/**
 * The subscription after `days` paid days are taken back (a staff refund): from the days held behind a running
 * marketplace period, else from the end. `null` when `current` has no marketplace period (the caller applies its
 * own rule, refund.ts).
 */
export function withoutPaidDays(current: StoredSubscription, days: number): StoredSubscription | null {
  if (current.storeUntil === undefined) return null;
  const carriedMs = Math.max(0, (current.carriedMs ?? 0) - days * DAY_MS);
  return { ...current, carriedMs, expiresAt: current.storeUntil + carriedMs };
}

/**
 * The subscription after one marketplace subscription's period ended at `endsAt` (refunded or cancelled at the
 * marketplace, not renewed, or no longer readable). `othersUntil` is the latest period end of the learner's other
 * running marketplace subscriptions, if any: the period then runs to it. Otherwise the days held start at `endsAt`,
 * and the subscription keeps `source: 'marketplace'` only when none are held. Never later than `current`.
 */
export function withoutStorePeriod(current: StoredSubscription, endsAt: number, othersUntil?: number): StoredSubscription {
  const { storeUntil, carriedMs, ...rest } = current;
  if (storeUntil === undefined) return { ...rest, expiresAt: Math.min(current.expiresAt, endsAt) }; // written before period truth
  if (othersUntil !== undefined) {
    const held = paidTimeLeft(current, Math.min(endsAt, storeUntil));
    const until = Math.min(othersUntil, storeUntil);
    return { ...rest, source: 'marketplace', storeUntil: until, carriedMs: held, expiresAt: Math.min(current.expiresAt, until + held) };
  }
  const held = paidTimeLeft(current, endsAt);
  return { ...rest, source: held > 0 ? 'gateway' : 'marketplace', expiresAt: Math.min(current.expiresAt, endsAt + held) };
}
