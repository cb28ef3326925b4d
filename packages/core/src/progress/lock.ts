/**
 * The curriculum as the learning loop reads it, and the lock rule (spec "Node (island)" state table).
 *
 * Lock rule: a node is unlocked when it is the first of its grade or the node before it on the map is
 * completed; the same rule gives `locked` in the map (map.ts).
 *
 * The curriculum types are read off `Deps['content']`, so progress imports nothing of curriculum/ (whose intro
 * reads the scoring rules of progress: importing its front here would close a loop).
 */
import { check, type TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { progressErrors } from './errors';
import { getNodeProgress, type NodeProgress, nodeProgressKey } from './nodeProgress.entity';

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

/**
 * The lock rule as a transaction item: a check that the node before `node` is completed, so a write for `node`
 * fails (its cancellation reason on this item) when it is locked; undefined for the first node of a grade.
 */
export const unlockedCheck = (deps: Deps, userId: number, node: CurriculumNode): TxItem | undefined =>
  node.previousNodeId === null
    ? undefined
    : check(deps.db, nodeProgressKey(userId, node.previousNodeId), { condition: 'completed = :yes', values: { ':yes': true } });
