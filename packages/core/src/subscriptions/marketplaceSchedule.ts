/**
 * When a marketplace subscription is asked again (DESIGN §8 "Renewal"; docs/decisions.md "Marketplace"). Times are
 * epoch ms; hours are UTC hours.
 *
 * - Before its renewal window (MARKETPLACE_RENEWAL_WINDOW_HOURS before `validUntil`): once a day, at an hour of the
 *   day chosen by its token digest ({@link recheckHour}), so the hourly job spreads the daily re-checks of all
 *   subscriptions over the day instead of asking them all at once; a refund or cancellation at the marketplace is
 *   then seen within a day rather than at renewal time. The first re-check is at least an hour after the last answer.
 * - Inside the window: at once for a new period (a verification or renewal of a short period), then at most every
 *   {@link RECHECK_BEFORE_END_HOURS} hours, and at the period's end; status reads and paywall checks ask at every
 *   read there (marketplaceRenewal.ts).
 * - After the end, while the marketplace may still bill it: every {@link RECHECK_AFTER_END_MINUTES} minutes, until
 *   {@link RENEWAL_GRACE_HOURS} hours after it.
 *
 * The next check is the subscription's `nextCheckAt`, indexed by its hour (gsi1, marketplacePurchase.entity.ts); a
 * read also asks when the last answer is a day old ({@link wantedByRead}), so a learner who reads sees a refund
 * within a day even when the job has not run.
 */
import type { Deps } from '../deps';
import { type MarketplacePurchase, recheckHour } from './marketplacePurchase.entity';

export const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const RECHECK_BEFORE_END_HOURS = 6;
export const RECHECK_AFTER_END_MINUTES = 15;
export const RENEWAL_GRACE_HOURS = 72;

/** The next daily re-check after `now`: the start of its hour, at least an hour away. */
export function nextDailyCheck(digest: string, now: number): number {
  let at = now - (now % DAY_MS) + recheckHour(digest) * HOUR_MS;
  while (at <= now + HOUR_MS) at += DAY_MS;
  return at;
}

/** When the renewal window of a period ending `validUntil` opens. */
export const renewalWindowStart = (deps: Pick<Deps, 'settings'>, validUntil: number): number =>
  validUntil - deps.settings.marketplace.renewalWindowHours * HOUR_MS;

/** When to ask again about the subscription with token digest `digest`, whose period ends `validUntil`, after an answer at `now`. */
export function nextCheckAt(deps: Pick<Deps, 'settings'>, digest: string, validUntil: number, now: number): number {
  const windowStart = renewalWindowStart(deps, validUntil);
  if (now < windowStart) return Math.min(windowStart, nextDailyCheck(digest, now));
  if (now < validUntil) return Math.min(validUntil, now + RECHECK_BEFORE_END_HOURS * HOUR_MS);
  return now + RECHECK_AFTER_END_MINUTES * 60_000;
}

/**
 * The first check of a new period ending `validUntil` (paid at `now`: a verification or a renewal): the daily
 * schedule before its renewal window, and at once inside it (whoever comes next asks whether it was billed again).
 */
export function firstCheckAt(deps: Pick<Deps, 'settings'>, digest: string, validUntil: number, now: number): number {
  const windowStart = renewalWindowStart(deps, validUntil);
  return now < windowStart ? Math.min(windowStart, nextDailyCheck(digest, now)) : now;
}

/** Whether the marketplace is past `validUntil` by more than the grace in which it may still bill it. */
export const pastGrace = (validUntil: number, now: number): boolean => now - validUntil > RENEWAL_GRACE_HOURS * HOUR_MS;

/** Whether `purchase` has something to do at `now`: a renewal order to settle, or a check that is due. */
export const isDue = (purchase: MarketplacePurchase, now: number): boolean =>
  purchase.renewalState === 'active' &&
  purchase.validUntil !== undefined &&
  (purchase.pendingOrderId !== undefined || (purchase.nextCheckAt !== undefined && purchase.nextCheckAt <= now));

/**
 * Whether a read (status, paywall) asks about `purchase` at `now`: it is due, or inside its renewal window, or the
 * marketplace's last answer about it is a day old.
 */
export const wantedByRead = (deps: Pick<Deps, 'settings'>, purchase: MarketplacePurchase, now: number): boolean =>
  isDue(purchase, now) ||
  (purchase.renewalState === 'active' &&
    purchase.validUntil !== undefined &&
    (renewalWindowStart(deps, purchase.validUntil) <= now || (purchase.checkedAt ?? purchase.boundAt) + DAY_MS <= now));
