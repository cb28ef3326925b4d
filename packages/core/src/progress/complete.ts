/**
 * Completing a node (island): `POST /api/nodes/{id}/quiz/complete` (spec "Node (island)" state table, Errors;
 * DESIGN §3), and what lesson completion (completeLesson.ts) shares with it.
 *
 * A completion reads what it needs in one request (completionState.ts, after the session check that loaded the
 * user) and writes everything it changes in one conditional transaction (completionWrite.ts): the node's
 * progress row, the day's activity, the user's XP, stars, counters and streak, the leaderboard move, the
 * `island_completed` notification and the route's throttle hit; three DynamoDB requests (issue 15; the
 * notification's id is the time, issue 30). Every XP grant carries the condition `xp = <the XP it read>` on the user item (leaderboard's
 * `xpMove`), so grants are serialized: a lesson and its node's quiz completing at once cannot both credit the
 * same questions; the loser re-reads (the user first, then the node) and decides again: the quiz recounts its
 * credited lessons, the lesson sees the node completed and grants nothing. A repeat completion grants no XP and
 * can only raise the stars.
 */
import { getUser, type User } from '../auth';
import { retryOptimistic } from '../db/conditions';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { heartsAt } from '../hearts';
import type { CountingDeps } from '../throttle';
import type { LatestAnswer } from './answer.entity';
import { type CompletionState, readCompletionState } from './completionState';
import { type CompletionWrite, writeCompletion } from './completionWrite';
import { progressErrors } from './errors';
import { type CurriculumNode, nodeOf, type Question } from './lock';
import type { NodeProgress } from './nodeProgress.entity';
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

/**
 * The number of right answers among `questions` (a lesson's or a node's) for `user`'s completion of it.
 *
 * Errors (spec Errors: zero hearts while enforced refuse "lesson/node completion without answers"):
 * - `no_hearts` when hearts are enforced, the learner has none, and the completion comes without answers: the lesson
 *   or node has no questions, or some of them are unanswered (the learner could not answer them now: every answer
 *   would be `no_hearts`, so `answers_missing` would send them in a circle). A completion whose answers are all
 *   there (given before the hearts ran out) goes ahead.
 * - `answers_missing` listing the unanswered ones.
 */
export function requireAnswers(deps: Deps, user: User, questions: Question[], answers: Map<number, LatestAnswer>): number {
  const missing = questions.filter((q) => !answers.has(q.id)).map((q) => q.id);
  if (questions.length === 0 || missing.length > 0) {
    const hearts = heartsAt(user, deps.clock.now(), deps.settings);
    if (hearts.enforced && hearts.hearts <= 0) throw progressErrors.noHearts();
  }
  if (missing.length > 0) throw progressErrors.answersMissing(missing);
  return questions.filter((q) => answers.get(q.id)?.correct).length;
}

/** The lessons of `node` that count for its completion: those with questions. */
export const countedLessons = (node: CurriculumNode) => node.lessons.filter((l) => l.questions.length > 0);

/** The node's first-completion row for `correct` right answers of `total`, granting `xp`, at `nowMs`. */
export function firstCompletionRow(node: CurriculumNode, correct: number, total: number, xp: number, nowMs: number): NodeProgress {
  return {
    nodeId: node.id,
    gradeId: node.gradeId,
    completed: true,
    stars: starsFor(correct, total),
    xp,
    score: total === 0 ? 0 : correct / total,
    completedAt: new Date(nowMs).toISOString(),
  };
}

/**
 * Decides and writes a completion until it holds: `decide(user, state)` says what to write from the user and
 * the state as last read (`state` is the one `read` gave first, then re-read after every lost race: the user
 * first, then the state, so a grant landing in between changes the XP and fails the next try instead of being
 * missed). Returns what `decide` made of the last try and the streak after it. Errors: whatever `decide` raises,
 * `not_found` (the user was deleted meanwhile), `throttled`, `database_busy` after 8 lost races in a row.
 */
export async function completeUntilSettled<T>(
  deps: CountingDeps,
  user: User,
  node: CurriculumNode,
  state: CompletionState,
  read: () => Promise<CompletionState>,
  decide: (user: User, state: CompletionState) => { write: CompletionWrite; result: T },
): Promise<{ result: T; streak: { current: number; longest: number } }> {
  let current = user;
  let latest = state;
  return retryOptimistic(
    async () => {
      const { write, result } = decide(current, latest);
      const streak = await writeCompletion(deps, current, node, write);
      return { result, streak: { current: streak.current, longest: streak.longest } };
    },
    async () => {
      const fresh = await getUser(deps.db, user.id);
      if (!fresh) throw commonErrors.notFound('User');
      current = fresh;
      latest = await read();
      return undefined;
    },
    { busy: progressErrors.busy },
  );
}

/**
 * `POST /api/nodes/{id}/quiz/complete`: completes an unlocked node from the recorded answers to all of its
 * questions. Any score completes. The quiz credits the XP of the questions of lessons not completed on their
 * own (those earned theirs there) plus the star bonus; a repeat completion can only raise the stars. Errors:
 * `not_found`, `node_locked`, `no_hearts` (node without questions, 0 hearts, enforced), `answers_missing`,
 * `throttled`, `database_busy`.
 */
export async function completeNode(deps: CountingDeps, user: User, nodeId: number): Promise<CompletionResponse> {
  const content = await deps.content.get();
  const node = nodeOf(content, nodeId);
  const questions = content.nodeQuestions(node.id);
  const counted = countedLessons(node);
  const read = () =>
    readCompletionState(
      deps,
      user.id,
      node,
      questions,
      counted.map((l) => l.id),
    );
  const state = await read();
  if (!state.unlocked) throw progressErrors.nodeLocked();
  const correct = requireAnswers(deps, user, questions, state.answers);
  const stars = starsFor(correct, questions.length);
  const { result, streak } = await completeUntilSettled(deps, user, node, state, read, (_current, latest) => {
    const done = { nextNodeId: node.nextNodeId, nodeCompleted: true };
    if (latest.own?.completed) {
      const from = latest.own.stars;
      const rises = stars > from;
      return {
        write: rises ? { raiseStars: { from, to: stars }, xp: 0, stars: stars - from } : { xp: 0, stars: 0 },
        result: { ...done, stars: Math.max(stars, from), xp: 0, alreadyCompleted: true },
      };
    }
    // Questions of lessons already completed earned their XP there; the quiz credits the others.
    const credited = new Set(counted.filter((l) => !latest.lessons.has(l.id)).map((l) => l.id));
    const creditedCorrect = questions.filter((q) => credited.has(q.lessonId) && latest.answers.get(q.id)?.correct).length;
    const xp = questions.length === 0 ? 0 : creditedCorrect * XP_PER_CORRECT + stars * XP_PER_STAR;
    return {
      write: { node: firstCompletionRow(node, correct, questions.length, xp, deps.clock.now()), xp, stars },
      result: { ...done, stars, xp, alreadyCompleted: false },
    };
  });
  return { ...result, streak };
}
