/**
 * Leaderboards (issue 3 §3): weekly (Tehran week) and overall, moved inside every XP grant (board.ts) and read
 * in bounded requests with a 60-second cache (read.ts). Stored items: boardEntry.entity.ts, histogram.entity.ts.
 */
import { BOARD_ENTRY_PREFIX } from './boardEntry.entity';

export { backfillBoardNames } from './backfill';
export { afterGrant, leaveBoards, OVERALL_BOARD, renameItems, weeklyBoard, type XpMove, xpMove } from './board';
export { boardEntries, getBoardEntry } from './boardEntry.entity';
export { type BoardStanding, bulkLoadBoard } from './bulkLoad';
export { xpHistogram } from './histogram.entity';
export { leaderboard, TOP_SIZE } from './read';

/** Sort-key prefixes of this domain's items in the learner's partition `USER#<id>`: personal data, deleted with the account. */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [BOARD_ENTRY_PREFIX];
