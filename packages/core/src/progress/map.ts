/**
 * The map and the learner's progress on it (spec "Node (island)"; `GET /api/home`, `GET /api/progress/nodes`).
 * Both read the learner's node progress rows in one Query; only the caller's own rows are ever read. The same Query
 * brings the mistakes review's items (the `NODE#` item collection), from which the home screen counts `reviewDue`;
 * it also shows the streak.
 */
import { gradeOf, type User } from '../auth';
import { tehranDay } from '../calendar/tehran';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { heartsAt } from '../hearts';
import { streakAt } from './activity';
import { isLocked } from './lock';
import { type NodeProgress, nodeCollection, nodeProgressOf } from './nodeProgress.entity';
import { reviewCountsOf } from './review';
import { type Summary, streakView } from './summary';

export interface HomeNode {
  id: number;
  title: string;
  locked: boolean;
  completed: boolean;
  stars: number;
}

export interface Home {
  gradeId: number;
  title: string;
  xp: number;
  stars: number;
  /** Hearts now (refill applied), see hearts/. */
  hearts: number;
  /** The streak with its freezes (DESIGN §13), as the summary shows it. */
  streak: Summary['streak'];
  /** Questions of the mistakes review due today or earlier (DESIGN §13). */
  reviewDue: number;
  units: { id: number; title: string; nodes: HomeNode[] }[];
}

/** The map of `gradeId` (default: the learner's grade, else grade 4). Errors: `not_found` for an unknown grade. */
export async function home(deps: Deps, user: User, gradeId?: number): Promise<Home> {
  const content = await deps.content.get();
  const grade = content.grade(gradeId ?? gradeOf(user));
  if (!grade) throw commonErrors.notFound('Grade');
  const { progress, review } = await nodeCollection(deps.db, user.id);
  const now = deps.clock.now();
  return {
    gradeId: grade.id,
    title: grade.title,
    xp: user.xp,
    stars: user.stars,
    hearts: heartsAt(user, now, deps.settings).hearts,
    streak: streakView(streakAt(user, now)),
    reviewDue: reviewCountsOf(review, content, tehranDay(now)).due,
    units: grade.units.map((unit) => ({
      id: unit.id,
      title: unit.title,
      nodes: unit.nodes.map((node) => {
        const own = progress.get(node.id);
        return {
          id: node.id,
          title: node.title,
          locked: isLocked(node, progress),
          completed: Boolean(own?.completed),
          stars: own?.stars ?? 0,
        };
      }),
    })),
  };
}

/**
 * The caller's node progress rows, by node id: `{ nodeId, gradeId, completed, stars, xp, score, completedAt }`
 * (the stored item parsed by its schema, so no key attribute leaves the table).
 */
export async function listNodeProgress(deps: Deps, user: User): Promise<NodeProgress[]> {
  const progress = await nodeProgressOf(deps.db, user.id);
  return [...progress.values()].sort((a, b) => a.nodeId - b.nodeId);
}
