/**
 * The nightly streak freeze job (DESIGN §13: "a Tehran day with no activity uses one freeze, at the next activity
 * or by the nightly job"): after Tehran midnight, every learner who missed yesterday and holds a freeze has it used
 * now, with its `streak_frozen` notification, instead of at their next activity, so the app can tell them their
 * streak was kept while they are away.
 *
 * Who: the streak watch index (streakWatch.entity.ts, gsi1): the learners whose streak's last day is the day before
 * yesterday or up to {@link FREEZE_LOOKBACK_DAYS} days earlier (runs that did not happen), shard by shard, a page at
 * a time, never a Scan. Each is re-read (strongly consistent) and settled through the grant path (grant.ts) with no
 * activity: the same conditional write the next activity would make, so the job racing an activity, a second run
 * or an account deletion uses each freeze once (the loser re-reads and finds nothing to do; a deleted learner's
 * write fails its `attribute_exists` condition). A settled learner moves to a later day's partition or out of the
 * index, so a run that stops at its deadline is continued by the next one.
 *
 * Bound: a learner costs a GetItem, a counter update (notification ids) and a transaction, about 30 ms;
 * {@link FREEZE_JOB_CONCURRENCY} at once, so about 250 learners a second, some 200,000 in one 14-minute run; the
 * Jobs stack runs it hourly from 00:05 to 05:05 Tehran (docs/decisions.md "Streak freezes").
 */
import { getUser } from '../auth';
import { addDays, tehranDay } from '../calendar/tehran';
import { retryOptimistic } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { logger } from '../log';
import { sweep } from '../parallel';
import { grantItems, notificationIds, planGrant } from './grant';
import { dropStaleWatch, STREAK_WATCH_SHARDS, type StreakWatch, watchedOn } from './streakWatch.entity';

/** Days before the day before yesterday that a run still looks at. */
export const FREEZE_LOOKBACK_DAYS = 7;
/** Learners settled at once. */
export const FREEZE_JOB_CONCURRENCY = 8;

export interface FreezeJobResult {
  /** Tehran days whose partitions were read, oldest first. */
  days: string[];
  /** Learners listed, learners whose freezes were used, and freezes used in all. */
  listed: number;
  settled: number;
  freezesUsed: number;
  /** The run stopped at its deadline with learners left (the next run continues). */
  more: boolean;
}

/** Settles one listed learner; returns the freezes used (0: nothing to do, gone, or settled by someone else). */
async function settleOne(deps: Deps, watch: StreakWatch): Promise<number> {
  return retryOptimistic(
    async () => {
      const user = await getUser(deps.db, watch.userId);
      if (!user) {
        await dropStaleWatch(deps.db, watch.userId, watch.lastDay); // the account is being deleted
        return 0;
      }
      const plan = planGrant(user, { xp: 0, activity: false }, deps.clock.now());
      if (!plan.streak) {
        // Nothing due (an activity came first), or a broken streak a freeze cannot save: out of this day's partition.
        if (user.streakLastDay !== watch.lastDay) return 0;
        await dropStaleWatch(deps.db, watch.userId, watch.lastDay);
        return 0;
      }
      await transact(deps.db, grantItems(deps, user, plan, notificationIds(deps, plan.notifications)));
      return plan.streak.frozenDays.length;
    },
    () => undefined,
  );
}

/**
 * One run at the clock's now. `deadlineMs` (epoch ms): no new learner is started after it (the Lambda's time less
 * a margin). Errors: the first unexpected error of a learner, after every listed learner was tried.
 */
export async function useMissedFreezes(deps: Deps, options: { deadlineMs?: number } = {}): Promise<FreezeJobResult> {
  const today = tehranDay(deps.clock.now());
  const days = Array.from({ length: FREEZE_LOOKBACK_DAYS + 1 }, (_, i) => addDays(today, i - FREEZE_LOOKBACK_DAYS - 2));
  const partitions = days.flatMap((day) => Array.from({ length: STREAK_WATCH_SHARDS }, (_, shard) => ({ day, shard })));
  let settled = 0;
  let freezesUsed = 0;
  const swept = await sweep(
    partitions,
    ({ day, shard }, cursor) => watchedOn(deps.db, day, shard, cursor),
    async (watch) => {
      const used = await settleOne(deps, watch);
      if (used > 0) {
        settled++;
        freezesUsed += used;
      }
    },
    {
      concurrency: FREEZE_JOB_CONCURRENCY,
      ...options,
      onError: (watch, error) =>
        logger.error('streak freeze job: a learner failed', { userId: watch.userId, reason: (error as Error).message }),
    },
  );
  return finish({ days, listed: swept.listed, settled, freezesUsed, more: swept.more }, swept.failures);
}

function finish(result: FreezeJobResult, failures: unknown[]): FreezeJobResult {
  logger.info('streak freeze job', { ...result, days: `${result.days[0]}..${result.days.at(-1)}`, failed: failures.length });
  if (failures.length) throw failures[0];
  return result;
}
