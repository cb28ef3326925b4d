/**
 * Completing a lesson: `POST /api/lessons/{id}/complete` (spec "Node (island)" state table, Errors; DESIGN §3).
 * The lesson's completion and its XP are one conditional transaction (condition: not completed yet, and the
 * user's XP is still the XP it read); when it is the last lesson with questions of its node, the node's first
 * completion goes into the same transaction (completionWrite.ts), and when it is not, the transaction checks
 * that the node's other missing lessons are still missing, so two last lessons completing at once always leave
 * the node completed, once. See complete.ts for how grants are serialized.
 */
import type { User } from '../auth';
import { commonErrors } from '../errors';
import type { CountingDeps } from '../throttle';
import {
  type CompletionResponse,
  type CompletionResult,
  completeUntilSettled,
  countedLessons,
  firstCompletionRow,
  requireAnswers,
} from './complete';
import type { CompletionState } from './completionState';
import { readCompletionState } from './completionState';
import type { CompletionWrite } from './completionWrite';
import { progressErrors } from './errors';
import { nodeOf } from './lock';
import { starsFor, XP_PER_CORRECT, XP_PER_STAR } from './rules';

/**
 * `POST /api/lessons/{id}/complete`: completes a lesson of an unlocked node from the recorded answers to its
 * questions (a lesson without questions completes with no XP). When every lesson of the node that has
 * questions is completed, the node is completed too. `stars` are the lesson's; `xp` is all this call
 * granted (lesson XP plus the node's star bonus).
 *
 * Errors: `not_found`, `node_locked`, `no_hearts` (lesson without questions, 0 hearts, enforced),
 * `answers_missing`, `throttled`, `database_busy` after 8 lost races in a row.
 */
export async function completeLesson(deps: CountingDeps, user: User, lessonId: number): Promise<CompletionResponse> {
  const content = await deps.content.get();
  const lesson = content.lesson(lessonId);
  if (!lesson) throw commonErrors.notFound('Lesson');
  const node = nodeOf(content, lesson.nodeId);
  const nodeQuestions = content.nodeQuestions(node.id);
  const counted = countedLessons(node);
  const lessonIds = [...new Set([lesson.id, ...counted.map((l) => l.id)])];
  // The whole node's answers are read: the node's score when this lesson completes it.
  const read = () => readCompletionState(deps, user.id, node, nodeQuestions, lessonIds);
  const state = await read();
  if (!state.unlocked) throw progressErrors.nodeLocked();
  const correct = requireAnswers(deps, user, lesson.questions, state.answers);
  const stars = starsFor(correct, lesson.questions.length);

  const decide = (_current: User, latest: CompletionState): { write: CompletionWrite; result: CompletionResult } => {
    const nodeDone = Boolean(latest.own?.completed);
    const alreadyCompleted = latest.lessons.has(lesson.id);
    // Once the node is completed its quiz has credited the lesson's questions: the lesson grants nothing then.
    const lessonXp = alreadyCompleted || nodeDone ? 0 : correct * XP_PER_CORRECT;
    const missing = counted.filter((l) => l.id !== lesson.id && !latest.lessons.has(l.id)).map((l) => l.id);
    const write: CompletionWrite = {
      ...(alreadyCompleted ? {} : { lesson: { lessonId: lesson.id, stars, xp: lessonXp } }),
      xp: lessonXp,
      stars: 0,
    };
    const result = { stars, xp: lessonXp, nextNodeId: node.nextNodeId, nodeCompleted: nodeDone, alreadyCompleted };
    if (nodeDone) return { write, result };
    if (missing.length > 0) return { write: { ...write, missingLessons: missing }, result };
    // The last lesson with questions: the node is completed too, from the whole node's answers. A node finished
    // by its lessons credits no answer of its own (their XP was granted by the lessons), only the star bonus.
    const nodeCorrect = nodeQuestions.filter((q) => latest.answers.get(q.id)?.correct).length;
    const nodeStars = starsFor(nodeCorrect, nodeQuestions.length);
    const bonus = nodeQuestions.length === 0 ? 0 : nodeStars * XP_PER_STAR;
    return {
      write: {
        ...write,
        node: firstCompletionRow(node, nodeCorrect, nodeQuestions.length, bonus, deps.clock.now()),
        xp: lessonXp + bonus,
        stars: nodeStars,
      },
      result: { ...result, xp: lessonXp + bonus, nodeCompleted: true },
    };
  };
  const { result, streak } = await completeUntilSettled(deps, user, node, state, read, decide);
  return { ...result, streak };
}
