/**
 * The tutor's daily quota (issue 5 §5; spec Limits: "Assistant questions per day: free users 2
 * (AI_DAILY_QUOTA_FREE); every plan 4 (per-plan ai_daily_quota)"; DESIGN §3: exceeded → 429
 * `ai_quota_exceeded`).
 *
 * One item per learner and Tehran day, `USER#<id>` / `AIQUOTA#<YYYY-MM-DD>`: `used` (questions counted),
 * `limit` (the limit of the latest reservation), token counters, TTL 3 days. A reservation is one
 * TransactWriteItems: `ADD used 1` under the condition `used < limit` (absent counts as 0), together with
 * `assistantQuestions + 1` on the learner's DAY# activity item (read by the weekly report), so parallel asks can
 * never exceed the limit and the report never drifts from the quota. Giving a reservation back (a failed model
 * call, a late refusal) is the mirror transaction: `ADD used -1` under `used > 0`, and `assistantQuestions - 1`,
 * on the day of the reservation.
 *
 * The limit is the active subscription's `aiDailyQuota` (subscriptions/active.ts), else AI_DAILY_QUOTA_FREE, as
 * of the moment of asking; a plan bought during the day raises the limit at once (`used` is kept).
 */
import { tehranDay, tehranDayStart } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import { keys } from '../db/keys';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { addDayActivity } from '../progress/activity';
import { activeSubscription, type StoredSubscription } from '../subscriptions/active';
import { tutorErrors } from './errors';

const DAY_MS = 86_400_000;
/** Quota items live three days (TTL), long enough for a give-back that crosses midnight. */
const QUOTA_KEEP_SECONDS = 3 * 86_400;
/** Attempts when parallel transactions on one quota item conflict (TransactionConflict). */
const CONFLICT_RETRIES = 8;

export interface QuotaReservation {
  userId: number;
  /** Tehran day the question was counted on. */
  day: string;
  /** Instant of the reservation, epoch ms (the give-back counts on the same DAY# item). */
  atMs: number;
  limit: number;
}

/** The learner's tutor questions per Tehran day at `nowMs`. */
export function dailyLimit(deps: Deps, user: { subscription?: StoredSubscription }, nowMs: number): number {
  return activeSubscription(user, nowMs)?.aiDailyQuota ?? deps.settings.ai.dailyQuotaFree;
}

/** Seconds from `nowMs` to the next Tehran midnight (Retry-After of `ai_quota_exceeded`). */
export const secondsToTehranMidnight = (nowMs: number): number => Math.max(1, Math.ceil((tehranDayStart(nowMs) + DAY_MS - nowMs) / 1000));

type Cancellation = { name?: string; CancellationReasons?: Array<{ Code?: string }> };
const reasons = (error: unknown) =>
  (error as Cancellation)?.name === 'TransactionCanceledException' ? ((error as Cancellation).CancellationReasons ?? []) : [];
const conditionFailed = (error: unknown, index: number) => reasons(error)[index]?.Code === 'ConditionalCheckFailed';
const conflicted = (error: unknown) => reasons(error).some((r) => r.Code === 'TransactionConflict');

async function withConflictRetry(run: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await run();
      return;
    } catch (error) {
      if (!conflicted(error) || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * (attempt + 1)));
    }
  }
}

/**
 * Counts one tutor question for `user` today, atomically with the DAY# activity counter.
 * Errors: `ai_quota_exceeded` (Retry-After: seconds to Tehran midnight) when today's questions reached the
 * limit; `database_busy` when parallel asks keep conflicting.
 */
export async function reserveQuota(deps: Deps, user: { id: number; subscription?: StoredSubscription }): Promise<QuotaReservation> {
  const atMs = deps.clock.now();
  const day = tehranDay(atMs);
  const limit = dailyLimit(deps, user, atMs);
  if (limit <= 0) throw tutorErrors.quotaExceeded(limit, secondsToTehranMidnight(atMs));
  try {
    await withConflictRetry(async () => {
      const items: TxItem[] = [
        update(deps.db, keys.aiQuota(user.id, day), 'SET #limit = :limit, #day = :day, expiresAt = :exp ADD #used :one', {
          condition: 'attribute_not_exists(#used) OR #used < :limit',
          names: { '#limit': 'limit', '#day': 'day', '#used': 'used' },
          values: { ':limit': limit, ':day': day, ':exp': epochSeconds(atMs) + QUOTA_KEEP_SECONDS, ':one': 1 },
        }),
        addDayActivity(deps.db, user.id, atMs, { assistantQuestions: 1 }),
      ];
      await transact(deps.db, items);
    });
  } catch (error) {
    if (conditionFailed(error, 0)) throw tutorErrors.quotaExceeded(limit, secondsToTehranMidnight(atMs));
    if (conflicted(error)) throw commonErrors.databaseBusy(1);
    throw error;
  }
  return { userId: user.id, day, atMs, limit };
}

/**
 * Gives a reservation back (the question no longer counts): `used - 1` and `assistantQuestions - 1` on the
 * reservation's day. Call at most once per reservation. A give-back whose quota item is gone (TTL) or already
 * at 0 is skipped.
 */
export async function giveBackQuota(deps: Deps, reservation: QuotaReservation): Promise<void> {
  try {
    await withConflictRetry(() =>
      transact(deps.db, [
        update(deps.db, keys.aiQuota(reservation.userId, reservation.day), 'ADD #used :minus', {
          condition: '#used > :zero',
          names: { '#used': 'used' },
          values: { ':minus': -1, ':zero': 0 },
        }),
        addDayActivity(deps.db, reservation.userId, reservation.atMs, { assistantQuestions: -1 }),
      ]),
    );
  } catch (error) {
    if (!conditionFailed(error, 0)) throw error;
  }
}
