/**
 * The map and the learner's progress on it (spec "Node (island)"; `GET /api/home`, `GET /api/progress/nodes`).
 * Both read the learner's node progress rows in one Query; only the caller's own rows are ever read.
 */
import { gradeOf, type User } from '../auth';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { heartsAt } from '../hearts';
import { isLocked } from './lock';
import { type NodeProgress, nodeProgressOf } from './nodeProgress.entity';

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
  units: { id: number; title: string; nodes: HomeNode[] }[];
}

/** The map of `gradeId` (default: the learner's grade, else grade 4). Errors: `not_found` for an unknown grade. */
export async function home(deps: Deps, user: User, gradeId?: number): Promise<Home> {
  const content = await deps.content.get();
  const grade = content.grade(gradeId ?? gradeOf(user));
  if (!grade) throw commonErrors.notFound('Grade');
  const progress = await nodeProgressOf(deps.db, user.id);
  return {
    gradeId: grade.id,
    title: grade.title,
    xp: user.xp,
    stars: user.stars,
    hearts: heartsAt(user, deps.clock.now(), deps.settings).hearts,
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
