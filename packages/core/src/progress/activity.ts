/**
 * The streak and its freezes: the rules (issue 3 §2, §4; spec "Progress": one streak entry per calendar day in
 * Tehran time; DESIGN §13 streak freeze). Pure: the writes are grant.ts.
 *
 * `streakCurrent`, `streakLongest`, `streakLastDay` (Tehran YYYY-MM-DD), `streakFreezes` and `streakFreezesUsed`
 * live on the user item. A day counts when the learner finished a lesson or node that day (a repeat completion
 * counts: practice is practice) or answered a question of their mistakes review. `streakLastDay` is the last day
 * that counted or that a freeze covered.
 *
 * Freezes (Duolingo's streak freeze, for a child):
 * - one is earned each time the streak reaches a multiple of {@link FREEZE_EVERY_DAYS} days (7, 14, 21 ...), and
 *   at most {@link STREAK_FREEZES_MAX} are held (one earned at the cap is lost);
 * - each Tehran day without activity after the last counted day uses one, oldest day first, so the streak goes on
 *   (a covered day keeps the streak's length, it does not add to it); two missed days need two;
 * - when the freezes run out before the missed days do, the freezes are used for the first missed days all the
 *   same and the streak is then broken (current 0): the outcome never depends on whether the nightly job ran
 *   before the next activity or not;
 * - a broken streak (current 0) uses none.
 *
 * Nothing has to run at midnight: {@link streakAt} judges the stored fields against today as if the freezes due
 * were used, and the next write ({@link streakPlan}: the next activity, or the nightly job) uses them for real,
 * under the condition that the last day and the freezes are still the ones read, so two writers (two answers
 * across midnight, the job racing an activity) never use a freeze twice: the loser re-reads and decides again.
 */
import { type User, type UserChange, type UserCondition, userCondition } from '../auth';
import { addDays, daysBetween, tehranDay } from '../calendar/tehran';
import { isStreakMilestone } from '../notifications';

/** Freezes a learner may hold (DESIGN §13). */
export const STREAK_FREEZES_MAX = 2;
/** A freeze is earned at every multiple of this many days of streak (DESIGN §13). */
export const FREEZE_EVERY_DAYS = 7;

export interface Streak {
  /** Days in a row up to today or yesterday, freezes counted as kept (0 when the chain is broken). */
  current: number;
  longest: number;
  /** Last Tehran day that counted or a freeze covered, or null. */
  lastDay: string | null;
  /** Whether today already counts. */
  today: boolean;
  /** Freezes held, after those the missed days use. */
  freezes: number;
}

/** The streak fields of the user item. */
export type StreakFields = Pick<User, 'id' | 'streakCurrent' | 'streakLongest' | 'streakLastDay' | 'streakFreezes'>;

/** The streak once the freezes the missed days before `today` need are used. */
interface Settled {
  current: number;
  lastDay: string | null;
  freezes: number;
  /** The missed days a freeze covers now, oldest first. */
  frozenDays: string[];
}

function settle(user: StreakFields, today: string): Settled {
  const lastDay = user.streakLastDay ?? null;
  const current = user.streakCurrent ?? 0;
  const freezes = user.streakFreezes ?? 0;
  if (!lastDay) return { current: 0, lastDay, freezes, frozenDays: [] };
  const missed = daysBetween(lastDay, today) - 1;
  if (missed <= 0) return { current, lastDay, freezes, frozenDays: [] };
  if (current === 0) return { current: 0, lastDay, freezes, frozenDays: [] };
  const used = Math.min(freezes, missed);
  const frozenDays = Array.from({ length: used }, (_, i) => addDays(lastDay, i + 1));
  return { current: used === missed ? current : 0, lastDay: addDays(lastDay, used), freezes: freezes - used, frozenDays };
}

/** The streak as of `nowMs` (epoch ms), judged lazily from the stored fields (freezes due counted as used). */
export function streakAt(user: StreakFields, nowMs: number): Streak {
  const today = tehranDay(nowMs);
  const settled = settle(user, today);
  return {
    current: settled.current,
    longest: user.streakLongest ?? 0,
    lastDay: settled.lastDay,
    today: settled.lastDay !== null && daysBetween(settled.lastDay, today) <= 0,
    freezes: settled.freezes,
  };
}

/**
 * What a write of the user item does to the streak: the SET (and ADD) actions of the streak after it, the
 * condition that the stored last day and freezes are still the ones read, its values, the streak after, the
 * missed days a freeze covers now (a `streak_frozen` notification each), whether the new length is a milestone
 * or earned a freeze (a `streak_milestone` notification), whether a freeze was earned, and the freezes held before.
 */
export interface StreakPlan {
  /** The user item's streak fields after it (freezes used added to `streakFreezesUsed`). */
  change: UserChange;
  /** The stored last day and freezes are still the ones read. */
  condition: UserCondition;
  after: Streak;
  frozenDays: string[];
  milestone: boolean;
  freezeEarned: boolean;
  freezesBefore: number;
}

/**
 * The streak plan of `user` at `nowMs`: with `activity` (today counts), the freezes the missed days need and the
 * day itself; without (the nightly job), only the freezes. Undefined when nothing changes (today already counts,
 * or, without activity, no freeze is due).
 */
export function streakPlan(user: StreakFields, nowMs: number, activity: boolean): StreakPlan | undefined {
  const today = tehranDay(nowMs);
  const settled = settle(user, today);
  const before = user.streakFreezes ?? 0;
  const longestBefore = user.streakLongest ?? 0;
  let after: Streak;
  let freezeEarned = false;
  if (activity) {
    if (user.streakLastDay && daysBetween(user.streakLastDay, today) <= 0) return undefined;
    const current = settled.current + 1;
    freezeEarned = current % FREEZE_EVERY_DAYS === 0 && settled.freezes < STREAK_FREEZES_MAX;
    after = {
      current,
      longest: Math.max(longestBefore, current),
      lastDay: today,
      today: true,
      freezes: settled.freezes + (freezeEarned ? 1 : 0),
    };
  } else {
    if (settled.frozenDays.length === 0) return undefined;
    after = { current: settled.current, longest: longestBefore, lastDay: settled.lastDay, today: false, freezes: settled.freezes };
  }
  const used = settled.frozenDays.length;
  return {
    change: {
      set: {
        streakCurrent: after.current,
        streakLongest: after.longest,
        ...(after.lastDay ? { streakLastDay: after.lastDay } : {}),
        streakFreezes: after.freezes,
      },
      ...(used > 0 ? { add: { streakFreezesUsed: used } } : {}),
    },
    condition: userCondition.all(
      user.streakLastDay ? userCondition.is({ streakLastDay: user.streakLastDay }) : userCondition.lacks('streakLastDay'),
      user.streakFreezes === undefined ? userCondition.lacks('streakFreezes') : userCondition.is({ streakFreezes: user.streakFreezes }),
    ),
    after,
    frozenDays: settled.frozenDays,
    milestone: activity && (isStreakMilestone(after.current) || freezeEarned),
    freezeEarned,
    freezesBefore: before,
  };
}
