/** Learner progress: the map, answers, lesson and node completion, hearts (spec "Progress", "Node (island)"). */

export { ACTIVITY_KEEP_DAYS, addDayActivity, recordStreakDay, type Streak, streakAt } from './activity';
export { progressErrors } from './errors';
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
export { type PeriodReport, SECONDS_PER_ASSISTANT_QUESTION, SECONDS_PER_QUESTION, type WeeklyReport, weeklyReport } from './report';
export { checkAnswer, starsFor, XP_PER_CORRECT, XP_PER_STAR } from './rules';
export { type Summary, summaryOf } from './summary';
export { lastWrongAnswer, WRONG_ANSWER_PREFIX, type WrongAnswer, wrongAnswerKey } from './wrongAnswer.entity';
