/**
 * The snapshot of a leaderboard (issue 30; DESIGN §14: "readers merge the shards"): what a read needs of the whole
 * board, merged from its shards at most once a minute by the board-snapshot job (snapshot.ts), so that a request
 * never reads a shard partition.
 *
 * | pk                 | sk         | attributes                                   | TTL |
 * |--------------------|------------|----------------------------------------------|-----|
 * | BOARDSNAP#<board>  | SNAPSHOT   | board, at (epoch ms), data (binary), expiresAt | weekly boards only |
 *
 * `data` is the deflated JSON of {@link SnapshotData}: the top {@link SnapshotData.top} with names, the histogram
 * (learners per XP value, highest first) and, for every XP value held by more than {@link MARKER_MIN_LEARNERS} learners
 * (the weekly board after a nationwide quiz; the overall board's low values), the tie place of every {@link MARKER_EVERY}-th of them, so a read counts
 * at most {@link MARKER_EVERY} ties of its own there, and at most {@link MARKER_MIN_LEARNERS} anywhere.
 * Size: about 4 bytes a distinct XP value and 8 a marker after compression; {@link MAX_SNAPSHOT_BYTES} bounds it
 * under DynamoDB's 400 KB item limit (docs/capacity.md: 60 KB at 3,000,000 learners). Not personal data beyond the
 * top's public names, which the board shows anyway; rebuilt every minute, so a renamed or deleted learner leaves it
 * within a minute.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, putItem } from '../db/items';
import type { Key } from '../db/keys';
import { lazySchema } from '../lazySchema';
import { compareTies, type TiePlace } from './boardEntry.entity';

/** An XP value held by more learners than this is crowded: the snapshot keeps markers of its tie order. */
export const MARKER_MIN_LEARNERS = 2_000;
/** One in this many learners at a crowded XP value is a marker. */
export const MARKER_EVERY = 500;
/** Largest compressed `data` written (DynamoDB items stop at 400 KB). */
export const MAX_SNAPSHOT_BYTES = 350_000;

export const snapshotKey = (board: string): Key => ({ pk: `BOARDSNAP#${board}`, sk: 'SNAPSHOT' });

/** A row of the top list as the snapshot keeps it. */
export interface TopRow {
  userId: number;
  publicId: string;
  /** The display name, or undefined when the learner has none (the publicId shows). */
  displayName?: string | undefined;
  xp: number;
}

/** What the snapshot holds (the JSON inside `data`). */
export interface SnapshotData {
  /** The top of the board in rank order. */
  top: TopRow[];
  /** `[xp, learners]`, highest XP first, values nobody holds left out. */
  histogram: Array<[number, number]>;
  /** XP value → the tie place of its learners number MARKER_EVERY, 2×MARKER_EVERY, ... in tie order. */
  markers: Record<string, Array<[number, number]>>;
}

const SnapshotItem = lazySchema(() =>
  z
    .object({
      board: z.string(),
      /** When the shards were read (epoch ms): the snapshot shows the board as it was then. */
      at: z.number().int(),
      data: z.instanceof(Uint8Array),
    })
    .describe('board snapshot'),
);

/**
 * A board as of its snapshot: the top, the learners above any XP value, and the markers of crowded XP values.
 * Built from {@link SnapshotData}; `above` and `count` answer by binary search.
 */
export class BoardSnapshot {
  private readonly xps: number[];
  /** `prefix[i]`: learners at the i highest XP values. */
  private readonly prefix: number[];
  private readonly counts: Map<number, number>;

  constructor(
    readonly board: string,
    readonly at: number,
    readonly data: SnapshotData,
  ) {
    this.xps = data.histogram.map(([xp]) => xp);
    this.prefix = [];
    let sum = 0;
    for (const [, n] of data.histogram) {
      sum += n;
      this.prefix.push(sum);
    }
    this.counts = new Map(data.histogram);
  }

  /** Learners on the board. */
  get total(): number {
    return this.prefix.at(-1) ?? 0;
  }

  /** Learners with strictly more than `xp`. */
  above(xp: number): number {
    // The number of XP values greater than xp (xps is descending).
    let lo = 0;
    let hi = this.xps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.xps[mid] as number) > xp) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : (this.prefix[lo - 1] as number);
  }

  /** Learners at exactly `xp`. */
  count(xp: number): number {
    return this.counts.get(xp) ?? 0;
  }

  /**
   * The last marker of `xp` strictly ahead of `place` in tie order, with the number of learners up to and including
   * it; undefined when none is.
   */
  markerBefore(xp: number, place: TiePlace): { place: TiePlace; upTo: number } | undefined {
    const marks = this.data.markers[String(xp)] ?? [];
    let found = -1;
    let lo = 0;
    let hi = marks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [reachedAt, userId] = marks[mid] as [number, number];
      if (compareTies({ reachedAt, userId }, place) < 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return undefined;
    const [reachedAt, userId] = marks[found] as [number, number];
    return { place: { reachedAt, userId }, upTo: (found + 1) * MARKER_EVERY };
  }
}

/** Writes the snapshot of `board` taken at `at` (epoch ms); `expiresAt` epoch seconds. Errors: the snapshot is over {@link MAX_SNAPSHOT_BYTES}. */
export async function putSnapshot(db: Db, snapshot: BoardSnapshot, expiresAt?: number): Promise<void> {
  const data = deflateRawSync(JSON.stringify(snapshot.data));
  if (data.byteLength > MAX_SNAPSHOT_BYTES) {
    throw new Error(`the snapshot of ${snapshot.board} is ${data.byteLength} bytes, over ${MAX_SNAPSHOT_BYTES}: lower its markers`);
  }
  await putItem(db, {
    ...snapshotKey(snapshot.board),
    board: snapshot.board,
    at: snapshot.at,
    data,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  });
}

/** The snapshot of `board`, or undefined when none was taken yet (eventually consistent: it changes once a minute). */
export async function getSnapshot(db: Db, board: string): Promise<BoardSnapshot | undefined> {
  const item = await getItem(db, snapshotKey(board), SnapshotItem, { consistent: false });
  if (!item) return undefined;
  return new BoardSnapshot(item.board, item.at, JSON.parse(inflateRawSync(item.data).toString('utf8')) as SnapshotData);
}
