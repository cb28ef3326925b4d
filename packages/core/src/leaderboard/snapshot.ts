/**
 * Taking the boards' snapshots (issue 30; DESIGN §14): the reader that merges the shards, once a minute per board,
 * so that no request ever reads a shard (snapshot.entity.ts holds the result; read.ts reads it).
 *
 * In AWS the `board-snapshots` job runs {@link refreshBoardSnapshots} every minute (stacks/Jobs.ts, a schedule);
 * the local runtime runs it before a leaderboard request whenever the last one is a minute old, which is what the
 * schedule guarantees (packages/local). A board without a snapshot yet (its first minute, e.g. Saturday 00:00 for a
 * new week) is snapshotted by its first reader (read.ts).
 *
 * Cost of one snapshot: one Query per histogram shard (all pages: as many items as the board has XP values), the
 * top walked XP value by value from the highest (one Query per tie shard and value, until 100 learners), and every
 * learner at an XP value held by more than `MARKER_MIN_LEARNERS` (their tie places, for the markers; read at most
 * `TIE_READ_UNITS_PER_SECOND` units a second per partition, boardEntry.entity.ts). Nothing here grows with the number of readers;
 * docs/capacity.md has the figures at 3,000,000 learners.
 */
import type { Db } from '../db/client';
import { boardExpiresAt, currentBoards } from './board';
import { entriesAt, tieOrder } from './boardEntry.entity';
import { mergedHistogram } from './histogram.entity';
import {
  BoardSnapshot,
  getSnapshot,
  MARKER_EVERY,
  MARKER_MIN_LEARNERS,
  putSnapshot,
  type SnapshotData,
  type TopRow,
} from './snapshot.entity';

/** Learners the snapshot keeps in its top list (the most a read shows). */
export const SNAPSHOT_TOP = 100;

/** Reads `board` from its shards at `nowMs` (epoch ms) and returns its snapshot (not written). */
export async function takeSnapshot(db: Db, board: string, nowMs: number): Promise<BoardSnapshot> {
  const histogram = await mergedHistogram(db, board);
  const top: TopRow[] = [];
  for (const [xp] of histogram) {
    if (top.length >= SNAPSHOT_TOP) break;
    for (const entry of await entriesAt(db, board, xp, SNAPSHOT_TOP - top.length)) {
      if (entry.publicId === undefined) continue; // every entry since migration 0006 is named
      top.push({ userId: entry.userId, publicId: entry.publicId, displayName: entry.displayName, xp: entry.xp });
    }
  }
  const markers: SnapshotData['markers'] = {};
  for (const [xp, learners] of histogram) {
    if (learners <= MARKER_MIN_LEARNERS) continue;
    const order = await tieOrder(db, board, xp);
    markers[String(xp)] = order.filter((_, i) => (i + 1) % MARKER_EVERY === 0).map((p) => [p.reachedAt, p.userId]);
  }
  return new BoardSnapshot(board, nowMs, { top, histogram, markers });
}

/** Takes and writes the snapshot of `board` at `nowMs`; returns it. Errors: DynamoDB's; a snapshot over its size bound. */
export async function refreshBoardSnapshot(db: Db, board: string, nowMs: number): Promise<BoardSnapshot> {
  const snapshot = await takeSnapshot(db, board, nowMs);
  await putSnapshot(db, snapshot, boardExpiresAt(board));
  return snapshot;
}

/**
 * The job: snapshots the boards shown at `nowMs` (overall, this week's). With `olderThanMs`, only those whose
 * snapshot was taken at least that long ago (or never): the local runtime's stand-in for the schedule. Returns the
 * boards snapshotted.
 */
export async function refreshBoardSnapshots(db: Db, nowMs: number, options: { olderThanMs?: number } = {}): Promise<string[]> {
  const due: string[] = [];
  for (const board of currentBoards(nowMs)) {
    if (options.olderThanMs !== undefined) {
      const last = await getSnapshot(db, board);
      if (last && nowMs - last.at < options.olderThanMs) continue;
    }
    await refreshBoardSnapshot(db, board, nowMs);
    due.push(board);
  }
  return due;
}
