/**
 * Learner progress (spec "Progress", "Node (island)"): the map, answering, lesson and node completion with XP
 * and stars, daily activity and the streak, the summary and the weekly report.
 *
 * Stored items (all in the learner's partition `USER#<id>`): node progress, lesson completion, latest answer,
 * answer attempt, daily activity, last wrong answer, the mistakes review and its attempts, the streak watch of the
 * nightly freeze job (`*.entity.ts`). The user item's progress fields (xp, stars, counters, streak and its freezes)
 * are auth's `UserItem`. DESIGN §13: streak freezes (activity.ts, grant.ts, freezeJob.ts), the mistakes review in
 * Leitner boxes (leitner.ts, review.ts, reviewAnswer.ts).
 */
import { ANSWER_PREFIX } from './answer.entity';
import { ATTEMPT_PREFIX } from './attempt.entity';
import { DAY_ACTIVITY_PREFIX } from './dayActivity.entity';
import { LESSON_COMPLETION_PREFIX } from './lessonCompletion.entity';
import { NODE_PROGRESS_PREFIX } from './nodeProgress.entity';
import { REVIEW_ATTEMPT_PREFIX } from './reviewAttempt.entity';
import { STREAK_WATCH_PREFIX } from './streakWatch.entity';
import { WRONG_ANSWER_PREFIX } from './wrongAnswer.entity';

export { FREEZE_EVERY_DAYS, STREAK_FREEZES_MAX, type Streak, streakAt } from './activity';
export { type AnswerResult, answerQuestion } from './answer';
export { type LatestAnswer, latestAnswer } from './answer.entity';
export { type CompletionResponse, type CompletionResult, completeNode } from './complete';
export { completeLesson } from './completeLesson';
export { ACTIVITY_KEEP_DAYS, addDayActivity, getDayActivity } from './dayActivity.entity';
export { progressErrors } from './errors';
export { FREEZE_LOOKBACK_DAYS, type FreezeJobResult, useMissedFreezes } from './freezeJob';
export { recordStreakDay } from './grant';
export { LEITNER_INTERVALS_DAYS, REVIEW_XP_DAILY_CAP, XP_PER_REVIEW } from './leitner';
export { type Home, home, listNodeProgress } from './map';
export type { NodeProgress } from './nodeProgress.entity';
export {
  type PeriodReport,
  SECONDS_PER_ASSISTANT_QUESTION,
  SECONDS_PER_QUESTION,
  type WeekFigures,
  type WeeklyReport,
  weekFigures,
  weeklyReport,
} from './report';
export { REVIEW_LIST_SIZE, type ReviewEntry, type ReviewQueue, reviewCounts, reviewQueue } from './review';
export { answerReview, type ReviewResult } from './reviewAnswer';
export { checkAnswer, starsFor, XP_PER_CORRECT, XP_PER_STAR } from './rules';
export { learningForStaff, type StaffLearningView } from './staff';
export { type Summary, streakView, summaryOf } from './summary';
export { lastWrongAnswer, WRONG_ANSWER_PREFIX, type WrongAnswer, wrongAnswerKey } from './wrongAnswer.entity';

/** Sort-key prefixes of this domain's items in the learner's partition `USER#<id>`: personal data, deleted with the account. */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [
  NODE_PROGRESS_PREFIX,
  LESSON_COMPLETION_PREFIX,
  ANSWER_PREFIX,
  ATTEMPT_PREFIX,
  DAY_ACTIVITY_PREFIX,
  WRONG_ANSWER_PREFIX,
  REVIEW_ATTEMPT_PREFIX,
  STREAK_WATCH_PREFIX,
];
