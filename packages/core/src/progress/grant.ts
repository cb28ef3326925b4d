/**
 * The one grant path of the learning loop (spec "Node (island)", "Progress"; DESIGN §5, §13): what a lesson or
 * node completion, a review answer and the nightly freeze job write to the learner, as items of the caller's
 * conditional transaction:
 *
 * - the user item: XP, stars and counters (ADD), the leaderboard fields under the condition `xp = <the XP read>`
 *   (leaderboard `xpMove`, which serializes grants), and the streak under the condition that its last day and
 *   freezes are the ones read (activity.ts `streakPlan`, which serializes streak changes);
 * - both leaderboards' items (`xpMove`), so every XP that reaches the learner reaches the boards the same way;
 * - the `streak_frozen` notification of each freeze used and the `streak_milestone` one;
 * - the streak watch item of the nightly job (streakWatch.entity.ts).
 *
 * A lost race cancels the whole transaction; the caller re-reads the user and decides again, with new notification
 * ids ({@link notificationIds}: the time, no request; issue 30).
 */
import { getUser, mergeUserChanges, type User, updateUser, userCondition } from '../auth';
import { retryOptimistic } from '../db/conditions';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { xpMove } from '../leaderboard';
import { newNotificationIds, notificationItem } from '../notifications';
import { type CountingDeps, transactCounting } from '../throttle';
import { type Streak, type StreakPlan, streakAt, streakPlan } from './activity';
import { unwatchStreak, watchStreak } from './streakWatch.entity';

/** What one grant gives the learner. */
export interface Grant {
  /** XP (≥ 0); it reaches both leaderboards. */
  xp: number;
  /** Stars added to the learner's total (≥ 0). */
  stars?: number;
  /** Counters of the user item to add to (`completedLessons`, `completedNodes`, `reviewMastered`). */
  counters?: { completedLessons?: number; completedNodes?: number; reviewMastered?: number };
  /** The grant is activity of today: it counts for the streak. */
  activity: boolean;
}

/** A grant decided for the user as read, at `nowMs`. */
export interface GrantPlan {
  grant: Grant;
  nowMs: number;
  streak: StreakPlan | undefined;
  /** Notification ids its items need (one per freeze used, one for a milestone). */
  notifications: number;
}

/** Plans `grant` for `user` (as last read) at `nowMs` (epoch ms). */
export function planGrant(user: User, grant: Grant, nowMs: number): GrantPlan {
  const streak = streakPlan(user, nowMs, grant.activity);
  return { grant, nowMs, streak, notifications: (streak?.frozenDays.length ?? 0) + (streak?.milestone ? 1 : 0) };
}

/** Whether the plan changes the learner at all. */
export const grantChanges = (plan: GrantPlan): boolean =>
  plan.grant.xp > 0 ||
  (plan.grant.stars ?? 0) > 0 ||
  Object.values(plan.grant.counters ?? {}).some((n) => n !== 0) ||
  plan.streak !== undefined;

/** The learner's streak after the plan (or as it stands when the plan does not touch it). */
export const streakAfter = (user: User, plan: GrantPlan): Streak => plan.streak?.after ?? streakAt(user, plan.nowMs);

/**
 * `wanted` new notification ids for one try of a transaction, at the clock's now (notifications
 * `newNotificationIds`: the time in ms, no request; an id another worker took in the same ms for the same learner
 * fails the notification's condition, and the next try takes new ones).
 */
export const notificationIds = (deps: Deps, wanted: number): number[] => newNotificationIds(deps.clock.now(), wanted);

/**
 * The transaction items of `plan` for `user` (as read when planned): none when it changes nothing. `ids` are the
 * plan's notification ids ({@link GrantPlan.notifications} of them).
 */
export function grantItems(deps: Deps, user: User, plan: GrantPlan, ids: number[]): TxItem[] {
  if (!grantChanges(plan)) return [];
  const { grant, streak, nowMs } = plan;
  // The one call of the leaderboard's grant entry point: XP reaches the boards only through here.
  const move = xpMove(deps.db, user, grant.xp, nowMs);
  const counters = Object.fromEntries(Object.entries(grant.counters ?? {}).filter(([, n]) => n !== 0));
  const change = mergeUserChanges({ add: { xp: grant.xp, stars: grant.stars ?? 0, ...counters } }, move.user, streak?.change);
  const items: TxItem[] = [updateUser(deps.db, user.id, change, userCondition.all(move.condition, streak?.condition)), ...move.items];
  if (!streak) return items;
  let taken = 0;
  const take = (): number => ids[taken++] as number;
  streak.frozenDays.forEach((day, i) => {
    items.push(notificationItem(deps.db, user.id, take(), 'streak_frozen', { day, freezesLeft: streak.freezesBefore - i - 1 }, nowMs));
  });
  if (streak.milestone) {
    const data = { days: streak.after.current, ...(streak.freezeEarned ? { freezeEarned: true } : {}) };
    items.push(notificationItem(deps.db, user.id, take(), 'streak_milestone', data, nowMs));
  }
  const { after } = streak;
  if (after.freezes > 0 && after.current > 0 && after.lastDay) items.push(watchStreak(deps.db, user.id, after.lastDay));
  else if (streak.freezesBefore > 0) items.push(unwatchStreak(deps.db, user.id));
  return items;
}

/**
 * Counts today for the learner's streak on its own (activity that writes nothing else): no-op when today already
 * counts; uses the freezes the missed days need. `loaded` is the user as the request read it, if any (saves a read).
 * One conditional transaction (with its notifications), counting the request's throttle ticket, retried
 * (`retryOptimistic`). Errors: `not_found` (User), `throttled`, `database_busy` after 8 lost races in a row.
 */
export async function recordStreakDay(deps: CountingDeps, userId: number, loaded?: User): Promise<Streak & { extended: boolean }> {
  return retryOptimistic(
    async (attempt) => {
      const user = attempt === 0 && loaded ? loaded : await getUser(deps.db, userId);
      if (!user) throw commonErrors.notFound('User');
      const plan = planGrant(user, { xp: 0, activity: true }, deps.clock.now());
      if (!plan.streak) return { ...streakAt(user, plan.nowMs), extended: false };
      await transactCounting(deps, grantItems(deps, user, plan, notificationIds(deps, plan.notifications)));
      return { ...plan.streak.after, extended: true };
    },
    () => undefined,
    { busy: () => commonErrors.databaseBusy(1) },
  );
}
