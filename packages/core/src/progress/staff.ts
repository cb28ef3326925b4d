/**
 * A learner's streak freezes and mistakes review as the staff see them on the learner's page (DESIGN §9, §13).
 */
import { getUser } from '../auth';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { STREAK_FREEZES_MAX, streakAt } from './activity';
import { reviewCounts } from './review';

export interface StaffLearningView {
  /** The streak now (freezes due counted as used), the freezes held and used in all. */
  streak: { current: number; longest: number; lastDay: string | null; freezes: number; freezesMax: number; freezesUsed: number };
  /** Questions in the mistakes review, due today or earlier, and mastered in all. */
  review: { inReview: number; due: number; mastered: number };
}

/** Learner `userId`'s streak and review for the staff. Errors: `not_found`. */
export async function learningForStaff(deps: Deps, userId: number): Promise<StaffLearningView> {
  const [user, review] = await Promise.all([getUser(deps.db, userId), reviewCounts(deps, userId)]);
  if (!user) throw commonErrors.notFound('User');
  const streak = streakAt(user, deps.clock.now());
  return {
    streak: {
      current: streak.current,
      longest: streak.longest,
      lastDay: streak.lastDay,
      freezes: streak.freezes,
      freezesMax: STREAK_FREEZES_MAX,
      freezesUsed: user.streakFreezesUsed ?? 0,
    },
    review: { ...review, mastered: user.reviewMastered ?? 0 },
  };
}
