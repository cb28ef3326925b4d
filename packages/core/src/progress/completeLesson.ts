/**
 * Completing a lesson: `POST /api/lessons/{id}/complete` (spec "Node (island)" state table, Errors; DESIGN §3).
 * The lesson's completion and its XP are one conditional transaction (condition: not completed yet, and the
 * user's XP is still the XP it read); when every lesson of the node that has questions is completed, the node
 * is completed too (complete.ts `finishNode`). See complete.ts for how grants are serialized.
 */
import { type User, userKey } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { afterGrant, xpMove } from '../leaderboard';
import {
  answersOf,
  type CompletionResponse,
  type CompletionResult,
  finishNode,
  reloadUser,
  requireAllAnswered,
  requireHearts,
  setClause,
  withStreak,
} from './complete';
import { addDayActivity } from './dayActivity.entity';
import { progressErrors } from './errors';
import { isLessonCompleted, lessonCompletions, putLessonCompletion } from './lessonCompletion.entity';
import { nodeOf, unlockedProgress } from './lock';
import { getNodeProgress } from './nodeProgress.entity';
import { starsFor, XP_PER_CORRECT } from './rules';

/**
 * `POST /api/lessons/{id}/complete`: completes a lesson of an unlocked node from the recorded answers to its
 * questions (a lesson without questions completes with no XP). When every lesson of the node that has
 * questions is completed, the node is completed too. `stars` are the lesson's; `xp` is all this call
 * granted (lesson XP plus the node's star bonus).
 *
 * Errors: `not_found`, `node_locked`, `no_hearts` (lesson without questions, 0 hearts, enforced),
 * `answers_missing`, `database_busy` after 8 lost races in a row.
 */
export async function completeLesson(deps: Deps, user: User, lessonId: number): Promise<CompletionResponse> {
  return withStreak(deps, user, await completeLessonOnce(deps, user, lessonId));
}

async function completeLessonOnce(deps: Deps, user: User, lessonId: number): Promise<CompletionResult> {
  const content = await deps.content.get();
  const lesson = content.lesson(lessonId);
  if (!lesson) throw commonErrors.notFound('Lesson');
  const node = nodeOf(content, lesson.nodeId);
  const own = await unlockedProgress(deps, user.id, node);
  if (lesson.questions.length === 0) requireHearts(deps, user);
  // Reads the whole node's answers when the lesson has questions (they share the node's sort-key prefix).
  const answers = await answersOf(deps, user.id, node, lesson.questions);
  const correct = requireAllAnswered(lesson.questions, answers);
  const stars = starsFor(correct, lesson.questions.length);
  let xp = own?.completed ? 0 : correct * XP_PER_CORRECT;
  let current = user;
  const { gained, alreadyCompleted } = await retryOptimistic<{ gained: number; alreadyCompleted: boolean }>(
    async () => {
      const now = deps.clock.now();
      const move = xpMove(deps.db, current, xp, now);
      await transact(deps.db, [
        putLessonCompletion(deps.db, user.id, {
          lessonId: lesson.id,
          nodeId: node.id,
          stars,
          xp,
          completedAt: new Date(now).toISOString(),
        }),
        addDayActivity(deps.db, user.id, now, { completedLessons: 1 }),
        update(deps.db, userKey(user.id), `ADD xp :xp, completedLessons :one${setClause(move)}`, {
          condition: move.userCondition,
          values: { ':xp': xp, ':one': 1, ...move.values },
        }),
        ...move.items,
      ]);
      current = afterGrant(current, xp, now);
      return { gained: xp, alreadyCompleted: false };
    },
    async () => {
      if (await isLessonCompleted(deps.db, user.id, lesson.id)) return { result: { gained: 0, alreadyCompleted: true } };
      // The XP changed: another grant, or the node's quiz credited this lesson's questions. Re-read the user
      // FIRST, then the node: a quiz completing after the user read changes the XP, so the next try's XP
      // condition fails and this runs again; read the other way round, a quiz landing between the two reads
      // would be missed and the lesson would credit its questions a second time.
      current = await reloadUser(deps, user.id);
      if (xp > 0 && (await getNodeProgress(deps.db, user.id, node.id))?.completed) xp = 0;
      return undefined;
    },
    { busy: progressErrors.busy },
  );

  if (own?.completed) {
    return { stars, xp: gained, nextNodeId: node.nextNodeId, nodeCompleted: true, alreadyCompleted };
  }
  const counted = node.lessons.filter((l) => l.questions.length > 0);
  const completed = await lessonCompletions(
    deps.db,
    user.id,
    counted.map((l) => l.id),
  );
  if (!counted.every((l) => completed.has(l.id))) {
    return { stars, xp: gained, nextNodeId: node.nextNodeId, nodeCompleted: false, alreadyCompleted };
  }
  const nodeQuestions = content.nodeQuestions(node.id);
  // `answers` already holds the whole node's answers when this lesson has questions.
  const allAnswers = lesson.questions.length > 0 ? answers : await answersOf(deps, user.id, node, nodeQuestions);
  const nodeCorrect = nodeQuestions.filter((q) => allAnswers.get(q.id)?.correct).length;
  // A node finished by its lessons credits no answer of its own: their XP was granted by the lessons.
  const finished = await finishNode(deps, current, node, () => ({ correct: nodeCorrect, total: nodeQuestions.length, creditedCorrect: 0 }));
  return {
    stars,
    xp: gained + (finished.alreadyCompleted ? 0 : finished.xp),
    nextNodeId: node.nextNodeId,
    nodeCompleted: true,
    alreadyCompleted,
  };
}
