/**
 * The tutor's daily quota (issue 5 §5; spec Limits: "Assistant questions per day: free users 2
 * (AI_DAILY_QUOTA_FREE); every plan 4 (per-plan ai_daily_quota)"; DESIGN §3: exceeded → 429
 * `ai_quota_exceeded`).
 *
 * One item per learner and Tehran day (`quota.entity.ts`). A reservation is one TransactWriteItems: `used + 1`
 * under the condition `used < limit`, together with `assistantQuestions + 1` on the learner's DAY# activity
 * item (progress/, read by the weekly report), so parallel asks can never exceed the limit and the report never
 * drifts from the quota. Giving a reservation back (a failed model call, a late refusal) is the mirror
 * transaction: `used - 1` under `used > 0`, and `assistantQuestions - 1`, on the day of the reservation.
 *
 * The limit is the active subscription's `aiDailyQuota` (subscriptions/), else AI_DAILY_QUOTA_FREE, as of the
 * moment of asking; a plan bought during the day raises the limit at once (`used` is kept).
 */
import type { StoredSubscription } from '../auth';
import { tehranDay, tehranDayStart } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import { cancellationReasons, failedItems, retryOptimistic } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { addDayActivity } from '../progress';
import { activeSubscription, syncMarketplaceRenewals } from '../subscriptions';
import { tutorErrors } from './errors';
import { giveBackQuotaUpdate, QUOTA_KEEP_SECONDS, reserveQuotaUpdate } from './quota.entity';

const DAY_MS = 86_400_000;
/** Tries of a quota transaction while parallel transactions on the same items conflict (TransactionConflict). */
const CONFLICT_ATTEMPTS = 9;

export interface QuotaReservation {
  userId: number;
  /** Tehran day the question was counted on. */
  day: string;
  /** Instant of the reservation, epoch ms (the give-back counts on the same DAY# item). */
  atMs: number;
  limit: number;
}

/** The learner's tutor questions per Tehran day at `nowMs` (epoch ms). */
export function dailyLimit(deps: Deps, user: { subscription?: StoredSubscription }, nowMs: number): number {
  return activeSubscription(user, nowMs)?.aiDailyQuota ?? deps.settings.ai.dailyQuotaFree;
}

/** Seconds from `nowMs` to the next Tehran midnight (Retry-After of `ai_quota_exceeded`). */
export const secondsToTehranMidnight = (nowMs: number): number => Math.max(1, Math.ceil((tehranDayStart(nowMs) + DAY_MS - nowMs) / 1000));

/**
 * Runs a quota transaction until it is not cancelled by a conflicting one (with a short random pause between
 * tries). A failed condition on the quota item (the first item) ends it with `onQuotaFailed`'s result; a failed
 * condition elsewhere is rethrown. Errors: `database_busy` (Retry-After 1 s) when the conflicts go on.
 */
function quotaTransaction<T>(run: () => Promise<T>, onQuotaFailed: () => T): Promise<T> {
  return retryOptimistic(
    run,
    async (error, n) => {
      if (failedItems(error).includes(0)) return { result: onQuotaFailed() };
      if (!cancellationReasons(error).includes('TransactionConflict')) throw error;
      if (n < CONFLICT_ATTEMPTS - 1) await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * (n + 1)));
      return undefined;
    },
    { attempts: CONFLICT_ATTEMPTS, busy: () => commonErrors.databaseBusy(1) },
  );
}

/**
 * Counts one tutor question for `user` today, atomically with the DAY# activity counter.
 * Errors: `ai_quota_exceeded` (Retry-After: seconds to Tehran midnight) when today's questions reached the
 * limit; `database_busy` when parallel asks keep conflicting.
 */
export async function reserveQuota(deps: Deps, user: { id: number; subscription?: StoredSubscription }): Promise<QuotaReservation> {
  const atMs = deps.clock.now();
  const day = tehranDay(atMs);
  const limit = dailyLimit(deps, await syncMarketplaceRenewals(deps, user), atMs); // the paywall asks the marketplace about a renewal due
  const exceeded = () => tutorErrors.quotaExceeded(limit, secondsToTehranMidnight(atMs));
  if (limit <= 0) throw exceeded();
  const reserved = await quotaTransaction(
    async () => {
      await transact(deps.db, [
        reserveQuotaUpdate(deps.db, user.id, day, limit, epochSeconds(atMs) + QUOTA_KEEP_SECONDS),
        addDayActivity(deps.db, user.id, atMs, { assistantQuestions: 1 }),
      ]);
      return true;
    },
    () => false,
  );
  if (!reserved) throw exceeded();
  return { userId: user.id, day, atMs, limit };
}

/**
 * Gives a reservation back (the question no longer counts): `used - 1` and `assistantQuestions - 1` on the
 * reservation's day. Call at most once per reservation. A give-back whose quota item is gone (TTL) or already
 * at 0 is skipped. Errors: `database_busy` when parallel asks keep conflicting.
 */
export async function giveBackQuota(deps: Deps, reservation: QuotaReservation): Promise<void> {
  await quotaTransaction(
    () =>
      transact(deps.db, [
        giveBackQuotaUpdate(deps.db, reservation.userId, reservation.day),
        addDayActivity(deps.db, reservation.userId, reservation.atMs, { assistantQuestions: -1 }),
      ]),
    () => undefined,
  );
}
