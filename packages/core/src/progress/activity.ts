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
import { update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { isStreakMilestone, newNotificationIds, notificationItem } from '../notifications';
import { transactCounting } from '../throttle';

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
 * What counting today adds to a write of the user item, or undefined when today already counts: the SET
 * actions of the new streak, the condition that the stored last day is still the one read (so concurrent
 * completions never double-count or break it: the loser re-reads), its values, the streak after, and whether
 * the new length is a milestone (a `streak_milestone` notification goes into the same transaction).
 */
export interface StreakStep {
  set: string;
  condition: string;
  values: Record<string, unknown>;
  after: Streak;
  milestone: boolean;
}

/** The streak step of `user` at `nowMs` (epoch ms), see {@link StreakStep}. */
export function streakStep(user: StreakFields, nowMs: number): StreakStep | undefined {
  const before = streakAt(user, nowMs);
  if (before.today) return undefined;
  const today = tehranDay(nowMs);
  const current = before.current + 1;
  const longest = Math.max(before.longest, current);
  return {
    set: 'streakCurrent = :stC, streakLongest = :stL, streakLastDay = :stD',
    condition: user.streakLastDay ? 'streakLastDay = :stPrev' : 'attribute_not_exists(streakLastDay)',
    values: { ':stC': current, ':stL': longest, ':stD': today, ...(user.streakLastDay ? { ':stPrev': user.streakLastDay } : {}) },
    after: { current, longest, lastDay: today, today: true },
    milestone: isStreakMilestone(current),
  };
}

/**
 * Counts today for the learner's streak on its own (a completion that writes nothing else): no-op when today
 * already counts, +1 when the last day was yesterday, else a new streak of 1. `loaded` is the user as the
 * request read it, if any (saves a read). One conditional transaction ({@link streakStep}, with the milestone
 * notification), counting the request's throttle ticket, retried (`retryOptimistic`).
 * Errors: `not_found` (User), `throttled`, `database_busy` after 8 lost races in a row.
 */
export async function recordStreakDay(deps: Deps, userId: number, loaded?: StreakFields): Promise<Streak & { extended: boolean }> {
  return retryOptimistic(
    async (attempt) => {
      // The first attempt may use the user the request already loaded (its streak fields are what the condition
      // checks); after a conflict, read again.
      const user = attempt === 0 && loaded ? loaded : await getUser(deps.db, userId);
      if (!user) throw commonErrors.notFound('User');
      const now = deps.clock.now();
      const step = streakStep(user, now);
      if (!step) return { ...streakAt(user, now), extended: false };
      const streakUpdate = update(deps.db, userKey(userId), `SET ${step.set}`, {
        condition: `attribute_exists(pk) AND ${step.condition}`,
        values: step.values,
      });
      const milestone = step.milestone
        ? [
            notificationItem(
              deps.db,
              userId,
              newNotificationIds(now, 1)[0] as number,
              'streak_milestone',
              { days: step.after.current },
              now,
            ),
          ]
        : [];
      await transactCounting(deps, [streakUpdate, ...milestone]);
      return { ...step.after, extended: true };
    },
    () => undefined,
    { busy: () => commonErrors.databaseBusy(1) },
  );
}
