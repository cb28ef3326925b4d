/**
 * The streak (issue 3 §2, §4; spec "Progress": one streak entry per calendar day in Tehran time).
 *
 * `streakCurrent`, `streakLongest`, `streakLastDay` (Tehran YYYY-MM-DD) live on the user item. A day counts
 * when the learner finished a lesson or node that day (a repeat completion counts: practice is practice).
 * Nothing runs at midnight: a read judges the stored streak against today ({@link streakAt}), and the next
 * completion extends it (yesterday was the last day) or starts it again at 1 (an older last day).
 *
 * Daily activity counters (answers, completions, tutor questions per Tehran day) are dayActivity.entity.ts.
 */
import { getUser, type User, userKey } from '../auth';
import { daysBetween, tehranDay } from '../calendar/tehran';
import { retryOptimistic } from '../db/conditions';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { isStreakMilestone, newNotificationId, notificationItem } from '../notifications';

/** @deprecated Import `addDayActivity` from the front (`../progress`); kept until tutor/quota.ts does (issue 10 merge). */
export { addDayActivity } from './dayActivity.entity';

export interface Streak {
  /** Days in a row up to today or yesterday (0 when the chain is broken). */
  current: number;
  longest: number;
  /** Last Tehran day with a completion, or null. */
  lastDay: string | null;
  /** Whether today already counts. */
  today: boolean;
}

/** The streak fields of the user item. */
export type StreakFields = Pick<User, 'id' | 'streakCurrent' | 'streakLongest' | 'streakLastDay'>;

/** The streak as of `nowMs` (epoch ms), judged lazily from the stored fields. */
export function streakAt(user: StreakFields, nowMs: number): Streak {
  const lastDay = user.streakLastDay ?? null;
  const longest = user.streakLongest ?? 0;
  if (!lastDay) return { current: 0, longest, lastDay, today: false };
  const gap = daysBetween(lastDay, tehranDay(nowMs));
  return { current: gap <= 1 ? (user.streakCurrent ?? 0) : 0, longest, lastDay, today: gap === 0 };
}

/**
 * Counts today for the learner's streak: no-op when today already counts, +1 when the last day was
 * yesterday, else a new streak of 1. `loaded` is the user as the request read it, if any (saves a read).
 * A conditional write on the previous last day (with a `streak_milestone` notification in the same
 * transaction when the new length is a milestone), retried (`retryOptimistic`), so concurrent completions
 * never double-count or break it. Returns the streak after the call and whether it grew.
 * Errors: `not_found` (User), `database_busy` after 8 lost races in a row.
 */
export async function recordStreakDay(deps: Deps, userId: number, loaded?: StreakFields): Promise<Streak & { extended: boolean }> {
  return retryOptimistic(
    async (attempt) => {
      // The first attempt may use the user the request already loaded (its streak fields are what the condition
      // checks); after a conflict, read again.
      const user = attempt === 0 && loaded ? loaded : await getUser(deps.db, userId);
      if (!user) throw commonErrors.notFound('User');
      const now = deps.clock.now();
      const today = tehranDay(now);
      const before = streakAt(user, now);
      if (before.today) return { ...before, extended: false };
      const current = before.current + 1;
      const longest = Math.max(before.longest, current);
      const streakUpdate = update(deps.db, userKey(userId), 'SET streakCurrent = :c, streakLongest = :l, streakLastDay = :d', {
        condition: user.streakLastDay ? 'streakLastDay = :prev' : 'attribute_exists(pk) AND attribute_not_exists(streakLastDay)',
        values: { ':c': current, ':l': longest, ':d': today, ...(user.streakLastDay ? { ':prev': user.streakLastDay } : {}) },
      });
      if (isStreakMilestone(current)) {
        const id = await newNotificationId(deps.db);
        await transact(deps.db, [streakUpdate, notificationItem(deps.db, userId, id, 'streak_milestone', { days: current }, now)]);
      } else {
        await transact(deps.db, [streakUpdate]);
      }
      return { current, longest, lastDay: today, today: true, extended: true };
    },
    () => undefined,
    { busy: () => commonErrors.databaseBusy(1) },
  );
}
