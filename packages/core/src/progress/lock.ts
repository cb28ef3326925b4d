/**
 * The curriculum as the learning loop reads it, and the lock rule (spec "Node (island)" state table).
 *
 * Lock rule: a node is unlocked when it is the first of its grade or the node before it on the map is
 * completed; the same rule gives `locked` in the map (map.ts).
 *
 * The curriculum types are read off `Deps['content']`, so progress imports nothing of curriculum/ (whose intro
 * reads the scoring rules of progress: importing its front here would close a loop).
 */
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { progressErrors } from './errors';
import { getNodeProgress, type NodeProgress } from './nodeProgress.entity';

export type Curriculum = Awaited<ReturnType<Deps['content']['get']>>;
export type CurriculumNode = NonNullable<ReturnType<Curriculum['node']>>;
export type Question = NonNullable<ReturnType<Curriculum['question']>>;

/** The node `nodeId` of `content`. Errors: `not_found` (Node). */
export function nodeOf(content: Curriculum, nodeId: number): CurriculumNode {
  const node = content.node(nodeId);
  if (!node) throw commonErrors.notFound('Node');
  return node;
}

/** Whether `node` is locked given the learner's node progress rows (map.ts reads them all at once). */
export const isLocked = (node: CurriculumNode, progress: Map<number, NodeProgress>): boolean =>
  node.previousNodeId !== null && !progress.get(node.previousNodeId)?.completed;

/** Checks that `node` is unlocked: the first of its grade, or the node before it is completed. Errors: `node_locked`. */
export async function requireUnlocked(deps: Deps, userId: number, node: CurriculumNode): Promise<void> {
  if (node.previousNodeId === null) return;
  if (!(await getNodeProgress(deps.db, userId, node.previousNodeId))?.completed) throw progressErrors.nodeLocked();
}

/** The node's own progress, after checking it is unlocked (both read at once). Errors: `node_locked`. */
export async function unlockedProgress(deps: Deps, userId: number, node: CurriculumNode): Promise<NodeProgress | undefined> {
  const [own] = await Promise.all([getNodeProgress(deps.db, userId, node.id), requireUnlocked(deps, userId, node)]);
  return own;
}
