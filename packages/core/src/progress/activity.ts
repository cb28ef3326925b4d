/**
 * Daily activity and the streak (issue 3 §2, §4; spec "Progress": one streak entry per calendar day in
 * Tehran time).
 *
 * - Daily activity: one item per learner and Tehran day (`DAY#YYYY-MM-DD`) whose counters (`answered`,
 *   `correct`, `completedLessons`, `completedNodes`, `assistantQuestions`) are ADDed inside the same transaction as the answer or
 *   completion they count, so they never drift from what happened. Kept {@link ACTIVITY_KEEP_DAYS} days.
 * - Streak: `streakCurrent`, `streakLongest`, `streakLastDay` on the user. A day counts when the learner
 *   finished a lesson or node that day (a repeat completion counts: practice is practice). Nothing runs at
 *   midnight: a read judges the stored streak against today (`streakAt`), and the next completion extends it
 *   (yesterday was the last day) or starts it again at 1 (an older last day).
 */
import type { User } from '../auth';
import { getUser } from '../auth';
import { daysBetween, tehranDay, tehranDayStart } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { isStreakMilestone, newNotificationId, notificationItem } from '../notifications/index';

export const ACTIVITY_KEEP_DAYS = 400;

export interface ActivityCounters {
  answered?: number;
  correct?: number;
  completedLessons?: number;
  completedNodes?: number;
  /** Tutor questions asked (counted when the quota is reserved; given back with it on a failed model call). */
  assistantQuestions?: number;
}

/** A transaction item that adds `counters` to the learner's activity of the Tehran day of `nowMs`. */
export function addDayActivity(db: Db, userId: number, nowMs: number, counters: ActivityCounters): TxItem {
  const entries = Object.entries(counters).filter(([, v]) => v !== undefined) as [string, number][];
  const adds = entries.map((_, i) => `#c${i} :c${i}`).join(', ');
  const day = tehranDay(nowMs);
  return update(db, keys.dayActivity(userId, day), `SET #day = :day, expiresAt = :exp ADD ${adds}`, {
    names: { '#day': 'day', ...Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])) },
    values: {
      ':day': day,
      ':exp': epochSeconds(tehranDayStart(nowMs)) + ACTIVITY_KEEP_DAYS * 86_400,
      ...Object.fromEntries(entries.map(([, v], i) => [`:c${i}`, v])),
    },
  });
}

export interface Streak {
  /** Days in a row up to today or yesterday (0 when the chain is broken). */
  current: number;
  longest: number;
  /** Last Tehran day with a completion, or null. */
  lastDay: string | null;
  /** Whether today already counts. */
  today: boolean;
}

type StreakFields = Pick<User, 'id'> & { streakCurrent?: number; streakLongest?: number; streakLastDay?: string };

/** The streak as of `nowMs`, judged lazily from the stored fields. */
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
 * transaction when the new length is a milestone), retried, so concurrent
 * completions never double-count or break it. Returns the streak after the call and whether it grew.
 */
export async function recordStreakDay(deps: Deps, userId: number, loaded?: StreakFields): Promise<Streak & { extended: boolean }> {
  for (let attempt = 0; attempt < 8; attempt++) {
    // The first attempt may use the user the request already loaded (its streak fields are what the condition
    // checks); after a conflict, read again.
    const user = attempt === 0 && loaded ? loaded : ((await getUser(deps.db, userId)) as StreakFields | undefined);
    if (!user) throw commonErrors.notFound('User');
    const now = deps.clock.now();
    const today = tehranDay(now);
    const before = streakAt(user, now);
    if (before.today) return { ...before, extended: false };
    const current = before.current + 1;
    const longest = Math.max(before.longest, current);
    const streakUpdate = update(deps.db, keys.user(userId), 'SET streakCurrent = :c, streakLongest = :l, streakLastDay = :d', {
      condition: user.streakLastDay ? 'streakLastDay = :prev' : 'attribute_exists(pk) AND attribute_not_exists(streakLastDay)',
      values: { ':c': current, ':l': longest, ':d': today, ...(user.streakLastDay ? { ':prev': user.streakLastDay } : {}) },
    });
    try {
      if (isStreakMilestone(current)) {
        const id = await newNotificationId(deps.db);
        await transact(deps.db, [streakUpdate, notificationItem(deps.db, userId, id, 'streak_milestone', { days: current }, now)]);
      } else {
        await transact(deps.db, [streakUpdate]);
      }
      return { current, longest, lastDay: today, today: true, extended: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw commonErrors.databaseBusy(1);
}
