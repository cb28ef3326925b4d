/**
 * Migration `0004-board-entry-names`, the leaderboard's part: the learners' names on the entries of the boards
 * shown now (overall, and the current Tehran week's), written before entries carried them (issue 15: the top list
 * reads no users). These are entries of the layout before migration 0006 (which carries the names on): visits the
 * users of the ids given (BatchGetItem), never a Scan; idempotent, and it never overwrites a name a grant or a rename
 * wrote (boardEntry.entity.ts `nameOldEntry`). Past weeks' boards are not shown and expire by TTL: left as they are.
 */
import { getUsers } from '../auth';
import type { Db } from '../db/client';
import { OVERALL_BOARD, weeklyBoard, weeklyPosition } from './board';
import { legacyEntryKey, nameOldEntry } from './boardEntry.entity';

/** Names the entries of `userIds` (those that exist) on the boards current at `nowMs` (epoch ms). */
export async function backfillBoardNames(db: Db, userIds: number[], nowMs: number): Promise<void> {
  for (const user of await getUsers(db, userIds)) {
    if (user.xp > 0) await nameOldEntry(db, legacyEntryKey(user.id, OVERALL_BOARD), user);
    if (weeklyPosition(user, nowMs).xp > 0) await nameOldEntry(db, legacyEntryKey(user.id, weeklyBoard(nowMs)), user);
  }
}
