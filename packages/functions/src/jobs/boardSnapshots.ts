/**
 * The `board-snapshots` job (issue 30; DESIGN §14): every minute, the snapshot of the leaderboards shown now (overall
 * and this Tehran week's) from their write-sharded entries and histogram (core leaderboard/snapshot.ts), which every
 * leaderboard read then uses instead of the shards. Run by the schedule of stacks/boardSnapshots.ts; a failed run is
 * not retried (the next minute's run takes a newer snapshot) but goes to the job's dead-letter queue, which the
 * Monitoring stack alarms on; readers take a snapshot themselves once theirs is five minutes old.
 *
 * Environment: TABLE_NAME. No secret: it builds no dependencies, only the table's client.
 */
import { logger } from '@mathisland/core';
import { createDb, type Db } from '@mathisland/core/db';
import { refreshBoardSnapshots } from '@mathisland/core/leaderboard';
import { jobHandler } from '../lib/job';

let db: Db | undefined;

export const handler = jobHandler(async (): Promise<{ boards: string[] }> => {
  const tableName = process.env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME is not set; the Jobs stack passes it to the board-snapshots job');
  db ??= createDb({ tableName });
  const started = Date.now();
  const boards = await refreshBoardSnapshots(db, started);
  logger.info('board snapshots taken', { boards, durationMs: Date.now() - started });
  return { boards };
});
