/**
 * Completing a node (island): `POST /api/nodes/{id}/quiz/complete`, and the node completion a lesson's
 * completion triggers (completeLesson.ts). Spec "Node (island)" state table, Errors; DESIGN §3.
 *
 * A node's first completion is one conditional transaction: its progress row (condition: not there yet), the
 * day's activity, the user's XP, stars and counters, the leaderboard move and the `island_completed`
 * notification. Every XP grant carries the condition `xp = <the XP it read>` on the user item
 * (leaderboard's `xpMove`), so grants are serialized: a lesson and its node's quiz completing at once cannot
 * both credit the same questions; the loser re-reads (the quiz recounts its credited lessons, the lesson sees
 * the node completed and grants nothing). A repeat completion grants no XP and can only raise the stars.
 */
import { getUser, type User, userKey } from '../auth';
import { isConditionFailure, retryOptimistic } from '../db/conditions';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { heartsAt } from '../hearts';
import { type XpMove, xpMove } from '../leaderboard';
import { newNotificationId, notificationItem } from '../notifications';
import { recordStreakDay } from './activity';
import { type LatestAnswer, nodeAnswers } from './answer.entity';
import { addDayActivity } from './dayActivity.entity';
import { progressErrors } from './errors';
import { lessonCompletions } from './lessonCompletion.entity';
import { type CurriculumNode, nodeOf, type Question, unlockedProgress } from './lock';
import { getNodeProgress, type NodeProgress, putFirstCompletion, raiseStarsItem } from './nodeProgress.entity';
import { starsFor, XP_PER_CORRECT, XP_PER_STAR } from './rules';

/** Result of completing a lesson or node: stars of what was completed, XP gained by this call, the next node. */
export interface CompletionResult {
  stars: number;
  xp: number;
  nextNodeId: number | null;
  /** The node is completed (now or before). */
  nodeCompleted: boolean;
  /** This call found it already completed: nothing was granted again. */
  alreadyCompleted: boolean;
}

/** A completion as the API answers it: with the learner's streak after it. */
export type CompletionResponse = CompletionResult & { streak: { current: number; longest: number } };

/** Counts today for the streak after a successful completion (first or repeat). */
export async function withStreak(deps: Deps, user: User, result: CompletionResult): Promise<CompletionResponse> {
  const streak = await recordStreakDay(deps, user.id, user);
  return { ...result, streak: { current: streak.current, longest: streak.longest } };
}

/** The number of right answers among `questions`. Errors: `answers_missing` listing the unanswered ones. */
export function requireAllAnswered(questions: Question[], answers: Map<number, LatestAnswer>): number {
  const missing = questions.filter((q) => !answers.has(q.id)).map((q) => q.id);
  if (missing.length > 0) throw progressErrors.answersMissing(missing);
  return questions.filter((q) => answers.get(q.id)?.correct).length;
}

/** Errors: `no_hearts` when hearts are enforced and the learner has none (completion without answers). */
export function requireHearts(deps: Deps, user: User): void {
  const hearts = heartsAt(user, deps.clock.now(), deps.settings);
  if (hearts.enforced && hearts.hearts <= 0) throw progressErrors.noHearts();
}

/** The learner's answers to the questions of `node`: none read when it has no questions. */
export const answersOf = (deps: Deps, userId: number, node: CurriculumNode, questions: Question[]): Promise<Map<number, LatestAnswer>> =>
  questions.length === 0 ? Promise.resolve(new Map()) : nodeAnswers(deps.db, userId, node.id);

/** The learner after a lost race. Errors: `not_found` (deleted meanwhile). */
export async function reloadUser(deps: Deps, userId: number): Promise<User> {
  const fresh = await getUser(deps.db, userId);
  if (!fresh) throw commonErrors.notFound('User');
  return fresh;
}

export const setClause = (move: XpMove) => (move.userSet ? ` SET ${move.userSet}` : '');

/** What a node's first completion counts: right answers of `total`, and the right answers it credits XP for. */
export interface NodeCount {
  correct: number;
  total: number;
  creditedCorrect: number;
}

/** A repeat completion: grants no XP; raises the node's stars (and the user's total) when the new score is better. */
async function raiseStars(deps: Deps, user: User, node: CurriculumNode, existing: NodeProgress, stars: number): Promise<CompletionResult> {
  const result = { xp: 0, nextNodeId: node.nextNodeId, nodeCompleted: true, alreadyCompleted: true };
  if (stars <= existing.stars) return { ...result, stars: existing.stars };
  try {
    await transact(deps.db, [
      raiseStarsItem(deps.db, user.id, node.id, existing.stars, stars),
      update(deps.db, userKey(user.id), 'ADD stars :diff', { values: { ':diff': stars - existing.stars } }),
    ]);
    return { ...result, stars };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const latest = await getNodeProgress(deps.db, user.id, node.id);
    return { ...result, stars: Math.max(stars, latest?.stars ?? 0) };
  }
}

/**
 * Marks `node` completed for the first time. `count(user)` is asked again before every try, so a lesson
 * completed meanwhile (its XP granted there) is no longer credited by the node. When the node's row exists
 * already (a retry or a race), the node stays finished and only its stars can rise. Errors: `database_busy`
 * after 8 lost races in a row.
 */
export async function finishNode(
  deps: Deps,
  user: User,
  node: CurriculumNode,
  count: (user: User) => NodeCount | Promise<NodeCount>,
): Promise<CompletionResult> {
  let current = user;
  let stars = 0;
  const notificationId = await newNotificationId(deps.db);
  return retryOptimistic<CompletionResult>(
    async () => {
      const stats = await count(current);
      stars = starsFor(stats.correct, stats.total);
      const xp = stats.total === 0 ? 0 : stats.creditedCorrect * XP_PER_CORRECT + stars * XP_PER_STAR;
      const now = deps.clock.now();
      const row: NodeProgress = {
        nodeId: node.id,
        gradeId: node.gradeId,
        completed: true,
        stars,
        xp,
        score: stats.total === 0 ? 0 : stats.correct / stats.total,
        completedAt: new Date(now).toISOString(),
      };
      const move = xpMove(deps.db, current, xp, now);
      await transact(deps.db, [
        putFirstCompletion(deps.db, user.id, row),
        addDayActivity(deps.db, user.id, now, { completedNodes: 1 }),
        update(deps.db, userKey(user.id), `ADD xp :xp, stars :stars, completedNodes :one${setClause(move)}`, {
          condition: move.userCondition,
          values: { ':xp': xp, ':stars': stars, ':one': 1, ...move.values },
        }),
        ...move.items,
        notificationItem(deps.db, user.id, notificationId, 'island_completed', { nodeId: node.id, title: node.title, stars, xp }, now),
      ]);
      return { stars, xp, nextNodeId: node.nextNodeId, nodeCompleted: true, alreadyCompleted: false };
    },
    async () => {
      const existing = await getNodeProgress(deps.db, user.id, node.id);
      if (existing) return { result: await raiseStars(deps, user, node, existing, stars) };
      // Not completed yet: another grant changed the XP first (a credited lesson may have been completed
      // meanwhile: the next try counts again). Re-read the user and move from there.
      current = await reloadUser(deps, user.id);
      return undefined;
    },
    { busy: progressErrors.busy },
  );
}

/**
 * `POST /api/nodes/{id}/quiz/complete`: completes an unlocked node from the recorded answers to all of its
 * questions. Any score completes. The quiz credits the XP of the questions of lessons not completed on their
 * own (those earned theirs there) plus the star bonus. Errors: `not_found`, `node_locked`, `no_hearts` (node
 * without questions, 0 hearts, enforced), `answers_missing`, `database_busy`.
 */
export async function completeNode(deps: Deps, user: User, nodeId: number): Promise<CompletionResponse> {
  return withStreak(deps, user, await completeNodeOnce(deps, user, nodeId));
}

async function completeNodeOnce(deps: Deps, user: User, nodeId: number): Promise<CompletionResult> {
  const content = await deps.content.get();
  const node = nodeOf(content, nodeId);
  const own = await unlockedProgress(deps, user.id, node);
  const questions = content.nodeQuestions(node.id);
  if (questions.length === 0) requireHearts(deps, user);
  const answers = await answersOf(deps, user.id, node, questions);
  const correct = requireAllAnswered(questions, answers);
  if (own?.completed) return raiseStars(deps, user, node, own, starsFor(correct, questions.length));
  const counted = node.lessons.filter((l) => l.questions.length > 0);
  return finishNode(deps, user, node, async (current) => {
    const completed = await lessonCompletions(
      deps.db,
      current.id,
      counted.map((l) => l.id),
    );
    // Questions of lessons already completed earned their XP there; the quiz credits the others.
    const credited = new Set(counted.filter((l) => !completed.has(l.id)).map((l) => l.id));
    const creditedCorrect = questions.filter((q) => credited.has(q.lessonId) && answers.get(q.id)?.correct).length;
    return { correct, total: questions.length, creditedCorrect };
  });
}
