/**
 * Leaderboards (issue 3 §3, issue 30): weekly (Tehran week) and overall, moved inside every XP grant (board.ts:
 * write-sharded entries and histogram), merged once a minute into a snapshot per board (snapshot.ts, the
 * `board-snapshots` job) and read in bounded requests (read.ts). Stored items: boardEntry.entity.ts,
 * histogram.entity.ts, snapshot.entity.ts.
 */
import type { Db } from '../db/client';
import { BOARD_ENTRY_PREFIXES, type BoardEntry, entriesOf } from './boardEntry.entity';
import { mergedHistogram } from './histogram.entity';

export { backfillBoardNames } from './backfill';
export {
  afterGrant,
  type BoardFields,
  currentBoards,
  leaveBoards,
  OVERALL_BOARD,
  renameItems,
  weeklyBoard,
  type XpMove,
  xpMove,
} from './board';
export { entriesOf, getBoardEntry, getLegacyEntry, legacyEntryKey, TIE_READ_UNITS_PER_SECOND, TIE_SHARDS } from './boardEntry.entity';
export { type BoardStanding, bulkLoadBoard } from './bulkLoad';
export { HISTOGRAM_SHARDS, legacyHistogramPartition, mergedHistogram, xpHistogram } from './histogram.entity';
export { dropLegacyHistograms, moveToShardedBoards } from './migrate';
export { LEADERBOARD_CACHE_SECONDS, leaderboard, TOP_SIZE } from './read';
export { CROWDED_VALUES_AT_ONCE, refreshBoardSnapshot, refreshBoardSnapshots, SNAPSHOT_TOP, takeSnapshot } from './snapshot';
export { getSnapshot, MARKER_EVERY, MARKER_MIN_LEARNERS } from './snapshot.entity';

/** Sort-key prefixes of this domain's items in the learner's partition `USER#<id>`: personal data, deleted with the account. */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = BOARD_ENTRY_PREFIXES;

/** Every entry of `board`, in rank order (XP descending, then tie order). For checks and tools, not for requests. */
export async function boardEntries(db: Db, board: string): Promise<BoardEntry[]> {
  return entriesOf(
    db,
    board,
    (await mergedHistogram(db, board)).map(([xp]) => xp),
  );
}
