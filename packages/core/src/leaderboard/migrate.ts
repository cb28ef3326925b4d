/**
 * Migration `0006-sharded-boards` (issue 30): moves the boards shown now (overall, and the current Tehran week's)
 * from the layout before it (one entry `BOARD#<board>` per learner, all ranked in one gsi1 partition per board, and
 * one histogram partition per board: hot keys at national scale) to the write-sharded one (boardEntry.entity.ts,
 * histogram.entity.ts), rank for rank: every learner keeps their XP and the time they reached it, so the order
 * (XP, then who reached it first, then user id) is the same.
 *
 * Per learner, one conditional transaction: the new entry, the new histogram bucket, the user item's board position
 * (`boardXp`, `boardWeek`, `boardWeekXp`), and the removal of the old entry, under the condition that the learner's XP
 * is still the one read and that they have no board position yet. So it is idempotent, and a grant racing it (by this
 * release: it moves the learner itself, board.ts; by the previous one, during the deploy: the condition fails and the
 * learner is read again) never counts a learner twice. Then the old histogram partitions of those boards are deleted.
 * Visits the users by id (the id counter), never a Scan. Past weeks' boards are not shown and expire by TTL.
 */
import { getUser, getUsers, type User, type UserChange, type UserCondition, updateUser, userCondition } from '../auth';
import { weekKey } from '../calendar/tehran';
import { deleteAll } from '../db/batch';
import type { Db } from '../db/client';
import { retryOptimistic } from '../db/conditions';
import { ItemKey, queryAll } from '../db/items';
import { type TxItem, transact } from '../db/transact';
import { boardExpiresAt, currentBoards, OVERALL_BOARD, weeklyBoard } from './board';
import { putBoardEntry, removeLegacyEntry } from './boardEntry.entity';
import { legacyHistogramPartition, moveBucket } from './histogram.entity';

/** The transaction that moves `user` onto the sharded boards current at `nowMs`, or undefined when nothing is left to move. */
function moveItems(db: Db, user: User, nowMs: number): TxItem[] | undefined {
  const week = weekKey(nowMs);
  const items: TxItem[] = [];
  const set: UserChange['set'] = {};
  const conditions: UserCondition[] = [
    userCondition.is({ xp: user.xp }),
    user.displayName ? userCondition.is({ displayName: user.displayName }) : userCondition.lacks('displayName'),
  ];
  const enter = (board: string, xp: number, reachedAt: number) => {
    const expiresAt = boardExpiresAt(board);
    items.push(
      putBoardEntry(db, board, user.id, user, xp, reachedAt, expiresAt),
      moveBucket(db, board, user.id, xp, 1, expiresAt),
      removeLegacyEntry(db, user.id, board),
    );
  };
  if (user.boardXp === undefined && user.xp > 0 && user.xpReachedAt !== undefined) {
    enter(OVERALL_BOARD, user.xp, user.xpReachedAt);
    set.boardXp = user.xp;
    conditions.push(userCondition.lacks('boardXp'), userCondition.is({ xpReachedAt: user.xpReachedAt }));
  }
  const weekXp = user.weekKey === week ? (user.weekXp ?? 0) : 0;
  if (user.boardWeek !== week && weekXp > 0 && user.weekXpReachedAt !== undefined) {
    enter(weeklyBoard(nowMs), weekXp, user.weekXpReachedAt);
    Object.assign(set, { boardWeek: week, boardWeekXp: weekXp });
    conditions.push(
      userCondition.is({ weekKey: week, weekXp, weekXpReachedAt: user.weekXpReachedAt }),
      userCondition.isNot('boardWeek', week),
    );
  }
  if (items.length === 0) return undefined;
  return [...items, updateUser(db, user.id, { set }, userCondition.all(...conditions))];
}

/** Moves the learners `userIds` (those that exist) onto the sharded boards current at `nowMs` (epoch ms). */
export async function moveToShardedBoards(db: Db, userIds: number[], nowMs: number): Promise<void> {
  for (const first of await getUsers(db, userIds)) {
    let user: User | undefined = first;
    await retryOptimistic(
      async () => {
        const items = user && moveItems(db, user, nowMs);
        if (items) await transact(db, items);
      },
      async () => {
        user = await getUser(db, first.id);
        return undefined;
      },
    );
  }
}

/** Deletes the histogram partitions of the boards current at `nowMs` in the layout before migration 0006. */
export async function dropLegacyHistograms(db: Db, nowMs: number): Promise<void> {
  for (const board of currentBoards(nowMs)) {
    const keys = await queryAll(db, { partition: legacyHistogramPartition(board), projection: ['pk', 'sk'] }, ItemKey);
    if (keys.length) await deleteAll(db, keys);
  }
}
