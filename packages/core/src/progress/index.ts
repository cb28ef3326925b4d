/** Learner progress: the map, answers, lesson and node completion, hearts (spec "Progress", "Node (island)"). */
export {
  answerQuestion,
  completeLesson,
  completeNode,
  home,
  listNodeProgress,
  nodeProgressOf,
  type AnswerResult,
  type CompletionResult,
  type Home,
  type NodeProgress,
} from './learning';
export { heartsAt, afterLosingOne, type HeartsNow, type StoredHearts } from './hearts';
export { progressErrors } from './errors';
export { XP_PER_CORRECT, XP_PER_STAR, starsFor, checkAnswer } from './rules';
