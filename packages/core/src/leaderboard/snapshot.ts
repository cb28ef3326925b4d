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
 * top read from the highest XP value down (one Query per tie shard and value, until 100 learners), and every
 * learner at an XP value held by more than `MARKER_MIN_LEARNERS` (their tie places, for the markers; read at most
 * `TIE_READ_UNITS_PER_SECOND` units a second per partition, boardEntry.entity.ts). Nothing here grows with the number of readers;
 * docs/capacity.md has the figures at 3,000,000 learners.
 */
import pLimit from 'p-limit';
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

/** XP values whose entries the top list reads at once (their tie shards' Queries in flight together). */
const TOP_VALUES_AT_ONCE = 8;

/**
 * The top {@link SNAPSHOT_TOP} learners of `board`, highest XP first, from its merged `histogram`: the histogram says
 * how many learners hold each value, so the values that fill the list are known before any is read and are read
 * {@link TOP_VALUES_AT_ONCE} at a time, each for as many entries as it adds (a mature board has one or two learners a
 * value near the top: a value at a time took a hundred round trips a minute). Entries without a name (none since
 * migration 0006) are left out, and the next values read instead. A learner whose XP moved while the values were
 * read (the tie index is eventually consistent) can show at both values: only the first, higher one is kept.
 */
async function topRows(db: Db, board: string, histogram: Array<[number, number]>): Promise<TopRow[]> {
  const top: TopRow[] = [];
  const listed = new Set<number>();
  let next = 0;
  while (top.length < SNAPSHOT_TOP && next < histogram.length) {
    // The values that fill what is missing, at most TOP_VALUES_AT_ONCE.
    const wave: Array<[number, number]> = [];
    for (let wanted = SNAPSHOT_TOP - top.length; wanted > 0 && next < histogram.length && wave.length < TOP_VALUES_AT_ONCE; next++) {
      const [xp, learners] = histogram[next] as [number, number];
      wave.push([xp, Math.min(learners, wanted)]);
      wanted -= learners;
    }
    const read = await Promise.all(wave.map(([xp, limit]) => entriesAt(db, board, xp, limit)));
    for (const entry of read.flat()) {
      if (top.length >= SNAPSHOT_TOP) break;
      if (entry.publicId === undefined || listed.has(entry.userId)) continue;
      listed.add(entry.userId);
      top.push({ userId: entry.userId, publicId: entry.publicId, displayName: entry.displayName, xp: entry.xp });
    }
  }
  return top;
}

/**
 * Crowded XP values whose tie order is read at once for the markers. Each value is its own tie partitions, each paced
 * at its own `TIE_READ_UNITS_PER_SECOND`, so reading several at once takes nothing more of any partition, and the
 * worker's database pool (8 requests in flight) stays busy while a value's shards wait out their pacing. One after
 * the other, every value cost at least a round trip, and a board has a few hundred crowded values at national scale:
 * the capacity model puts such a run at 3,000,000 learners at 27 s of the job's 50 s, and this one at 16 s
 * (docs/capacity.md). The job holds at most this many values' entries of each board at once (80 bytes an entry).
 */
export const CROWDED_VALUES_AT_ONCE = 8;

/** Reads `board` from its shards at `nowMs` (epoch ms) and returns its snapshot (not written). */
export async function takeSnapshot(db: Db, board: string, nowMs: number): Promise<BoardSnapshot> {
  const histogram = await mergedHistogram(db, board);
  const top = await topRows(db, board, histogram);
  const markers: SnapshotData['markers'] = {};
  const atOnce = pLimit(CROWDED_VALUES_AT_ONCE);
  const crowded = histogram.filter(([, learners]) => learners > MARKER_MIN_LEARNERS);
  try {
    await Promise.all(
      crowded.map(([xp]) =>
        atOnce(async () => {
          const order = await tieOrder(db, board, xp);
          markers[String(xp)] = order.filter((_, i) => (i + 1) % MARKER_EVERY === 0).map((p) => [p.reachedAt, p.userId]);
        }),
      ),
    );
  } catch (error) {
    // The snapshot has failed: the values not yet started are not read.
    atOnce.clearQueue();
    throw error;
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
 *
 * The boards are taken at once, not one after the other: a snapshot is stamped `nowMs`, and a reader counts anyone
 * who reached an XP value after that stamp as not in it (read.ts), so each histogram must be read right at the
 * stamp; read after the other board's whole snapshot (tens of seconds of paced tie reads at national scale), the
 * weekly histogram would hold the learners who reached a value meanwhile and rank them behind themselves. And one
 * board failing does not keep the other from being refreshed. Errors: the first board's failure, after the other is
 * written.
 */
export async function refreshBoardSnapshots(db: Db, nowMs: number, options: { olderThanMs?: number } = {}): Promise<string[]> {
  const due: string[] = [];
  for (const board of currentBoards(nowMs)) {
    if (options.olderThanMs !== undefined) {
      const last = await getSnapshot(db, board);
      if (last && nowMs - last.at < options.olderThanMs) continue;
    }
    due.push(board);
  }
  const results = await Promise.allSettled(due.map((board) => refreshBoardSnapshot(db, board, nowMs)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return due;
}
