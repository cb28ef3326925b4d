/** Learner progress: the map, answers, lesson and node completion, hearts (spec "Progress", "Node (island)"). */

export { progressErrors } from './errors';
export { afterLosingOne, type HeartsNow, heartsAt, type StoredHearts } from './hearts';
export {
  type AnswerResult,
  answerQuestion,
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
