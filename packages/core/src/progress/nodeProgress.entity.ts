/**
 * A learner's progress on one node (island): pk `USER#<userId>`, sk `NODE#<nodeId 8 digits>`; no GSI, no TTL. The
 * `NODE#` item collection also holds the mistakes review's items (`NODE#<nodeId>#REVIEW#<questionId>`, review.entity.ts).
 * Written once, when the node is first completed (condition: not there yet), in the transaction that grants
 * its XP; afterwards only its stars can rise (spec "Node (island)": a finished node stays finished).
 * Personal data: deleted with the account.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { ReviewItem } from './review.entity';

export const NODE_PROGRESS_PREFIX = 'NODE#';

export const nodeProgressKey = (userId: number, nodeId: number): Key => ({
  pk: userPartition(userId),
  sk: `${NODE_PROGRESS_PREFIX}${pad(nodeId, 8)}`,
});

export const NodeProgressItem = lazySchema(() =>
  z
    .object({
      nodeId: z.number().int(),
      gradeId: z.number().int(),
      completed: z.boolean(),
      /** 0-3, see rules.ts `starsFor`. */
      stars: z.number().int().nonnegative(),
      /** XP granted when the node was completed (its own part, not its lessons'). */
      xp: z.number().int().nonnegative(),
      /** Share of correct answers at completion, 0-1. */
      score: z.number(),
      /** ISO time of the first completion. */
      completedAt: z.string(),
    })
    .describe('node progress'),
);
export type NodeProgress = z.infer<typeof NodeProgressItem>;

/** The learner's progress on `nodeId`, or undefined when they never completed it (strongly consistent). */
export const getNodeProgress = (db: Db, userId: number, nodeId: number): Promise<NodeProgress | undefined> =>
  getItem(db, nodeProgressKey(userId, nodeId), NodeProgressItem);

/** An item of the `NODE#` collection: a node progress row or a mistakes review item (review.entity.ts). */
const NodeCollectionItem = lazySchema(() => z.union([ReviewItem, NodeProgressItem]).describe('node collection item'));

/**
 * The learner's `NODE#` item collection in one Query (all pages): the node progress rows by node id, and the
 * mistakes review's items.
 */
export async function nodeCollection(db: Db, userId: number): Promise<{ progress: Map<number, NodeProgress>; review: ReviewItem[] }> {
  const items = await queryAll(db, { partition: userPartition(userId), sortKey: { beginsWith: NODE_PROGRESS_PREFIX } }, NodeCollectionItem);
  const review = items.filter((i): i is ReviewItem => 'box' in i);
  const rows = items.filter((i): i is NodeProgress => !('box' in i));
  return { progress: new Map(rows.map((p) => [p.nodeId, p])), review };
}

/** Every node progress row of the learner, by node id (one Query, all pages). */
export const nodeProgressOf = async (db: Db, userId: number): Promise<Map<number, NodeProgress>> =>
  (await nodeCollection(db, userId)).progress;

/** Transaction item: the first completion of `row.nodeId`; fails when the node was completed already. */
export const putFirstCompletion = (db: Db, userId: number, row: NodeProgress): TxItem =>
  put(db, { ...nodeProgressKey(userId, row.nodeId), ...row }, { condition: 'attribute_not_exists(pk)' });

/** Transaction item: raises the node's stars from `from` to `to`; fails when they are no longer `from`. */
export const raiseStarsItem = (db: Db, userId: number, nodeId: number, from: number, to: number): TxItem =>
  update(db, nodeProgressKey(userId, nodeId), 'SET stars = :new', { condition: 'stars = :old', values: { ':new': to, ':old': from } });
