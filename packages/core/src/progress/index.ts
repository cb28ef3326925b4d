/** Learner progress: the map, answers, lesson and node completion, hearts (spec "Progress", "Node (island)"). */

export { ACTIVITY_KEEP_DAYS, addDayActivity, recordStreakDay, type Streak, streakAt } from './activity';
export { progressErrors } from './errors';
export { afterLosingOne, type HeartsNow, heartsAt, type StoredHearts } from './hearts';
export {
  type AnswerResult,
  answerQuestion,
  type CompletionResponse,
  type CompletionResult,
  completeLesson,
  completeNode,
  type Home,
  home,
  listNodeProgress,
  type NodeProgress,
  nodeProgressOf,
} from './learning';
export { checkAnswer, starsFor, XP_PER_CORRECT, XP_PER_STAR } from './rules';
