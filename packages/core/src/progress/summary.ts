/**
 * The learner summary (`GET /api/user/summary`, issue 3 §4): XP, stars, streak, hearts, completed islands
 * and the active plan's name. Reads only the user item the auth check already loaded (no extra request).
 * `activePlan` is the title of the active subscription's plan, or null (expired subscriptions are not active).
 */
import type { User } from '../auth';
import type { Deps } from '../deps';
import { heartsAt } from '../hearts';
import { activeSubscription } from '../subscriptions';
import { streakAt } from './activity';

export interface Summary {
  /** `User` + 6 digits. */
  publicId: string;
  displayName: string | null;
  xp: number;
  stars: number;
  streak: { current: number; longest: number; today: boolean };
  hearts: { hearts: number; maxHearts: number; enforced: boolean; nextHeartAt: number | null };
  /** Nodes (islands) and lessons completed, counted on the user item by the completions. */
  completedIslands: number;
  completedLessons: number;
  activePlan: string | null;
}

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
    streak: { current: streak.current, longest: streak.longest, today: streak.today },
    hearts: { hearts, maxHearts, enforced, nextHeartAt },
    completedIslands: user.completedNodes ?? 0,
    completedLessons: user.completedLessons ?? 0,
    activePlan: activeSubscription(user, now)?.planTitle ?? null,
  };
}
