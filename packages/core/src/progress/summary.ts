/**
 * The learner summary (`GET /api/user/summary`, issue 3 §4): XP, stars, streak (with its freezes, DESIGN §13),
 * hearts, completed islands and the active plan's name. Reads only the user item the auth check already loaded (no extra request).
 * `activePlan` is the title of the active subscription's plan, or null (expired subscriptions are not active).
 */
import type { User } from '../auth';
import type { Deps } from '../deps';
import { heartsAt } from '../hearts';
import { activeSubscription } from '../subscriptions';
import { STREAK_FREEZES_MAX, type Streak, streakAt } from './activity';

export interface Summary {
  /** `User` + 6 digits. */
  publicId: string;
  displayName: string | null;
  xp: number;
  stars: number;
  /** `freezes` held after those the missed days use; `freezesMax` 2. */
  streak: { current: number; longest: number; today: boolean; freezes: number; freezesMax: number };
  hearts: { hearts: number; maxHearts: number; enforced: boolean; nextHeartAt: number | null };
  /** Nodes (islands) and lessons completed, counted on the user item by the completions. */
  completedIslands: number;
  completedLessons: number;
  activePlan: string | null;
}

/** The streak as the summary and the home screen show it (DESIGN §13). */
export const streakView = (streak: Streak) => ({
  current: streak.current,
  longest: streak.longest,
  today: streak.today,
  freezes: streak.freezes,
  freezesMax: STREAK_FREEZES_MAX,
});

/** The summary of `user` (the user item the request loaded) as of now. */
export function summaryOf(deps: Deps, user: User): Summary {
  const now = deps.clock.now();
  const streak = streakAt(user, now);
  const { hearts, maxHearts, enforced, nextHeartAt } = heartsAt(user, now, deps.settings);
  return {
    publicId: user.publicId,
    displayName: user.displayName ?? null,
    xp: user.xp,
    stars: user.stars,
    streak: streakView(streak),
    hearts: { hearts, maxHearts, enforced, nextHeartAt },
    completedIslands: user.completedNodes ?? 0,
    completedLessons: user.completedLessons ?? 0,
    activePlan: activeSubscription(user, now)?.planTitle ?? null,
  };
}
