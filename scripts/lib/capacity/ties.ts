/**
 * The tie index at the target's size (issue 30; docs/capacity.md), for the capacity model (model.ts): what a Query of a
 * tie shard costs once the simulated learners stand for thousands ({@link tieRangeUnits}), and how long the
 * board-snapshot job's run takes when it reads every learner at the crowded XP values ({@link snapshotJobRun}).
 * Both scale with the learners at one XP value, which the run itself never has (a few hundred simulated learners).
 */

import { defaultPool } from '@mathisland/core/db';
import {
  CROWDED_VALUES_AT_ONCE,
  MARKER_EVERY,
  MARKER_MIN_LEARNERS,
  TIE_READ_UNITS_PER_SECOND,
  TIE_SHARDS,
} from '@mathisland/core/leaderboard';
import { BOARD_SNAPSHOT_JOB } from '../../../infra/functions';
import type { Pattern } from './patterns';
import type { RecordedRequest } from './recorder';
import type { Phase } from './simulate';

/** Size of a board entry as the tie index holds it (projection ALL), bytes. */
export const ENTRY_BYTES = 260;
/** What one page of a Query reads at most: DynamoDB stops a page at 1 MB of items. */
export const QUERY_PAGE_BYTES = 1_048_576;
/**
 * How long the job takes over one page of each of the {@link TIE_SHARDS} shards in AWS, fetched and parsed, ms (an
 * assumption): a 1 MB Query answers in tens of milliseconds, and parsing a page's ~4,000 entries took 0.8 µs an entry
 * here (JSON, unmarshalling, zod), about 13 ms for the four pages on a whole core, twice that on the share of a core a
 * 1,024 MB Lambda gets. Below the job's pacing (a page a shard every 128 ms), so on a value of several pages the
 * pacing sets the pace; a value of one page takes this long.
 */
export const JOB_PAGE_MS = 100;
/** The rest of a board's snapshot: its histogram (one Query per histogram shard, at once) and the top 100, s. */
export const JOB_BASE_SECONDS = 1;
/** What the job holds of an entry it read (a tie place: user id and time, in the page's array and the sorted one), bytes. */
export const JOB_ENTRY_HEAP_BYTES = 80;

/**
 * The read units of one tie-index Query (one tie shard's range) at the target, or undefined for any other request.
 * The range holds as many more entries as the learners it stands for (`scanned × factor`), up to what the query can
 * read: its Limit (the snapshot job's pages), or a learner's count of ties, which stops at the last marker of a crowded
 * value ({@link MARKER_EVERY}) or at {@link MARKER_MIN_LEARNERS} (model.ts module doc); that count is over all tie
 * shards, each holding a {@link TIE_SHARDS}-th of it (learners are spread by user id). Units are what DynamoDB charges a
 * Query, counted or returned alike: the entries' bytes ({@link ENTRY_BYTES} each) summed, rounded up to 4 KB, half a
 * unit per 4 KB (an index read is eventually consistent). Scaling the run's reported units instead would scale its
 * rounding up: a range of 4 entries costs the minimum, half a unit, and times 125 that is 62.5 units for 500 entries,
 * where DynamoDB charges 16.
 */
export function tieRangeUnits(
  request: RecordedRequest,
  pattern: Pattern,
  factor: number,
  groupAt: (request: RecordedRequest, pk: string) => number,
): number | undefined {
  if (!pattern.tieRanges || request.operation !== 'Query') return undefined;
  const scanned = Math.max(1, request.scanned ?? 1);
  const pk = request.accesses[0]?.pk ?? '';
  const cap =
    request.limit ??
    (request.origin === 'schedule'
      ? Number.POSITIVE_INFINITY
      : (groupAt(request, pk) > MARKER_MIN_LEARNERS ? MARKER_EVERY : MARKER_MIN_LEARNERS) / TIE_SHARDS);
  const entries = Math.min(scanned * factor, cap);
  return Math.max(1, Math.ceil((entries * ENTRY_BYTES) / 4096)) / 2;
}

/** What the job saw at one run: the learners at each XP value of one board (the snapshot's histogram). */
export interface Census {
  phase: Phase;
  at: number;
  board: string;
  histogram: Array<[number, number]>;
}

/** The board-snapshot job at the target: its longest run, and the most it holds at once in any run. */
export interface SnapshotJobRun {
  /** When the longest run ran (simulated epoch ms) and in which phase. */
  at: number;
  phase: Phase;
  /** Its slowest board (the two are taken at once). */
  board: string;
  /** How long it takes, s: its slowest board's. */
  seconds: number;
  /** Learners at crowded XP values it reads, both boards. */
  entries: number;
  /** The most learners of one board's crowded values read at once in any run ({@link CROWDED_VALUES_AT_ONCE} values). */
  heldEntries: number;
  /** What holding them takes, MB ({@link JOB_ENTRY_HEAP_BYTES} each). */
  heldMb: number;
  /** The job's timeout, s, and memory, MB (infra/functions.ts BOARD_SNAPSHOT_JOB). */
  timeoutSeconds: number;
  memoryMb: number;
}

/**
 * The job at the target, from the run's `census` (each board's histogram at each run of the job), each simulated
 * learner standing for `factorOf(phase)` learners (model.ts). It follows the job's code (core leaderboard/snapshot.ts,
 * boardEntry.entity.ts `tieOrder`, db/client.ts): the two boards at once; in each, after its histogram and top
 * ({@link JOB_BASE_SECONDS}), the crowded XP values (over {@link MARKER_MIN_LEARNERS} learners) in histogram order,
 * `atOnce` at a time ({@link CROWDED_VALUES_AT_ONCE}; the next starts as soon as one ends), each read whole, its
 * {@link TIE_SHARDS} shards at once. A page ({@link QUERY_PAGE_BYTES} of entries, {@link ENTRY_BYTES} each) takes
 * {@link JOB_PAGE_MS}; a shard's next page starts no sooner than 128 ms after its last
 * ({@link TIE_READ_UNITS_PER_SECOND} units a second a partition); and the worker's database pool has
 * `defaultPool.max` requests in flight at most. A run takes the longer of the two bounds: its slowest board's
 * values as scheduled, or all its pages through the pool. model.ts sets the longest run against half of the job's
 * timeout, and the most held at once against half its memory.
 */
export function snapshotJobRun(census: Census[], factorOf: (phase: Phase) => number, atOnce = CROWDED_VALUES_AT_ONCE): SnapshotJobRun {
  const pageSeconds = JOB_PAGE_MS / 1000;
  const pacedSeconds = Math.max(pageSeconds, QUERY_PAGE_BYTES / 4096 / 2 / TIE_READ_UNITS_PER_SECOND); // eventually consistent
  type Run = Pick<SnapshotJobRun, 'at' | 'phase' | 'board' | 'seconds' | 'entries' | 'heldEntries'> & { pages: number };
  const runs = new Map<number, Run>();
  for (const { phase, at, board, histogram } of census) {
    const crowded = histogram.map(([, learners]) => learners * factorOf(phase)).filter((n) => n > MARKER_MIN_LEARNERS);
    // The values as scheduled: lanes of the pool of `atOnce`, when each is free again, s.
    const lanes = Array.from({ length: atOnce }, () => 0);
    let pages = 0;
    for (const learners of crowded) {
      const shardPages = Math.ceil((learners * ENTRY_BYTES) / TIE_SHARDS / QUERY_PAGE_BYTES);
      const free = lanes.indexOf(Math.min(...lanes));
      lanes[free] = (lanes[free] as number) + (shardPages - 1) * pacedSeconds + pageSeconds;
      pages += shardPages * TIE_SHARDS;
    }
    const read: Run = {
      at,
      phase,
      board,
      seconds: Math.max(...lanes),
      pages,
      entries: crowded.reduce((sum, n) => sum + n, 0),
      heldEntries: [...crowded]
        .sort((a, b) => b - a)
        .slice(0, atOnce)
        .reduce((sum, n) => sum + n, 0),
    };
    const other = runs.get(at);
    const slowest = other && other.seconds > read.seconds ? other : read;
    // Both boards' pages share the pool, and both boards' values may be held at once.
    runs.set(at, {
      ...slowest,
      pages: read.pages + (other?.pages ?? 0),
      entries: read.entries + (other?.entries ?? 0),
      heldEntries: read.heldEntries + (other?.heldEntries ?? 0),
    });
  }
  const timed = [...runs.values()].map((r) => ({
    ...r,
    seconds: JOB_BASE_SECONDS + Math.max(r.seconds, (r.pages * pageSeconds) / defaultPool.max),
  }));
  const idle = { at: 0, phase: 'day' as Phase, board: '', seconds: JOB_BASE_SECONDS, entries: 0, heldEntries: 0, pages: 0 };
  const { pages: _pages, ...longest } = timed.reduce((a, b) => (b.seconds > a.seconds ? b : a), idle);
  const heldEntries = Math.max(0, ...timed.map((r) => r.heldEntries));
  return { ...longest, heldEntries, heldMb: (heldEntries * JOB_ENTRY_HEAP_BYTES) / 1e6, ...BOARD_SNAPSHOT_JOB };
}
