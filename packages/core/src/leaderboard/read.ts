/**
 * Reading a leaderboard (`GET /api/leaderboard?period=weekly|overall`, issue 3 §3; spec "Progress": computed
 * live, cached 60 seconds; DESIGN §3, §5, §14).
 *
 * The board comes from its snapshot (snapshot.entity.ts), merged from the shards at most a minute ago by the
 * board-snapshot job: one GetItem per board and worker a minute, whatever the number of learners and readers.
 * The caller's rank is `1 + learners with more XP + learners with the same XP who reached it earlier` against that
 * snapshot, with the caller's own XP as it is now:
 * - in the snapshot's top with that XP: the top's rank;
 * - reached after the snapshot: behind every learner the snapshot had at that XP, so no request at all;
 * - otherwise the snapshot gives the learners above and, at a crowded XP value, the last marker ahead of the
 *   caller; one COUNT Query per tie shard counts the ties between that marker (or the first) and the caller: at most
 *   `MARKER_EVERY` of them, whatever the number of learners.
 * The rank is cached per learner, board and snapshot in the worker, keyed by the learner's XP, so a learner who
 * just earned XP sees their new rank at once, against a board at most a minute old (`computedAt` says how old).
 *
 * So a read is the session check plus, cold, the snapshot and the ties (at most 1 + 1 + TIE_SHARDS requests; 1 warm,
 * tests/requests.test.ts). No Scan, nothing that grows with the board. A learner with no XP in the period has no
 * entry and no rank (`rank: null`).
 */
import { LRUCache } from 'lru-cache';
import type { User } from '../auth';
import { tehranWeekStart } from '../calendar/tehran';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { logger } from '../log';
import { OVERALL_BOARD, weeklyBoard, weeklyPosition } from './board';
import { countTiesBetween } from './boardEntry.entity';
import { refreshBoardSnapshot } from './snapshot';
import { type BoardSnapshot, getSnapshot } from './snapshot.entity';

export type Period = 'weekly' | 'overall';

/** How long a board's snapshot is reused, seconds (spec Limits: leaderboard cache). */
export const LEADERBOARD_CACHE_SECONDS = 60;
/** Entries a read can show; `limit` picks a prefix of them. */
export const TOP_SIZE = 100;
/** A snapshot older than this is taken again by its reader (the job has stopped), seconds. */
const SNAPSHOT_STALE_SECONDS = 300;
/** How long a worker keeps a snapshot that was already old when read (the job is late), before asking again, ms. */
const LATE_RECHECK_MS = 10_000;

export interface LeaderboardRow {
  rank: number;
  publicId: string;
  /** The learner's display name, or their publicId when they have none. */
  name: string;
  xp: number;
}

export interface Leaderboard {
  period: Period;
  /** Saturday the weekly board started (Tehran, YYYY-MM-DD); null for overall. */
  weekStart: string | null;
  items: LeaderboardRow[];
  /** The caller: rank null when they have no XP in the period. */
  me: { rank: number | null; publicId: string; name: string; xp: number };
  /** When the board's snapshot was taken (ISO); it is reused for 60 s. */
  computedAt: string;
}

interface WorkerCaches {
  snapshots: Map<string, { snapshot: BoardSnapshot; checkedAt: number }>;
  ranks: LRUCache<string, { xp: number; snapshotAt: number; rank: number }>;
}

// Per worker: keyed by the worker's database client, so that several stacks in one process (tests) or the capacity
// model's simulated workers never share entries.
const caches = new WeakMap<Db, WorkerCaches>();
const cachesOf = (db: Db): WorkerCaches => {
  let found = caches.get(db);
  if (!found) {
    found = { snapshots: new Map(), ranks: new LRUCache({ max: 50_000 }) };
    caches.set(db, found);
  }
  return found;
};

const nameOf = (u: { displayName?: string | undefined; publicId: string }) => u.displayName || u.publicId;

/**
 * The snapshot of `board` for this worker at `now`: the cached one while under a minute old, else the stored one
 * (written by the job), or a new one when there is none or it is over five minutes old.
 */
async function snapshotOf(deps: Deps, board: string, now: number): Promise<BoardSnapshot> {
  const cache = cachesOf(deps.db).snapshots;
  const cached = cache.get(board);
  if (cached && (now - cached.snapshot.at < LEADERBOARD_CACHE_SECONDS * 1000 || now - cached.checkedAt < LATE_RECHECK_MS)) {
    return cached.snapshot;
  }
  let snapshot = await getSnapshot(deps.db, board);
  if (!snapshot || now - snapshot.at > SNAPSHOT_STALE_SECONDS * 1000) {
    if (snapshot) logger.warn('board snapshot stale: taking it on read', { board, ageSeconds: Math.round((now - snapshot.at) / 1000) });
    snapshot = await refreshBoardSnapshot(deps.db, board, now);
  }
  cache.set(board, { snapshot, checkedAt: now });
  return snapshot;
}

/** The rank of a learner at `xp`, reached at `reachedAt` (epoch ms), against `snapshot` (see the module doc). */
async function rankOf(deps: Deps, snapshot: BoardSnapshot, userId: number, xp: number, reachedAt: number): Promise<number> {
  const above = snapshot.above(xp);
  if (reachedAt > snapshot.at) return 1 + above + snapshot.count(xp);
  if (snapshot.count(xp) <= 1) return 1 + above;
  const place = { reachedAt, userId };
  const marker = snapshot.markerBefore(xp, place);
  const between = await countTiesBetween(deps.db, snapshot.board, xp, marker?.place, place);
  return 1 + above + (marker?.upTo ?? 0) + between;
}

/**
 * The leaderboard of `period` for the signed-in `user` (the user item as the request loaded it): the top
 * `limit` (1 to {@link TOP_SIZE}) and the caller's own rank, even outside the top.
 */
export async function leaderboard(deps: Deps, user: User, period: Period, limit = 50): Promise<Leaderboard> {
  const now = deps.clock.now();
  const board = period === 'overall' ? OVERALL_BOARD : weeklyBoard(now);
  const snapshot = await snapshotOf(deps, board, now);
  const top = snapshot.data.top.map((row, i) => ({
    rank: i + 1,
    userId: row.userId,
    publicId: row.publicId,
    name: nameOf(row),
    xp: row.xp,
  }));

  const position = period === 'overall' ? { xp: user.xp, reachedAt: user.xpReachedAt } : weeklyPosition(user, now);
  let rank: number | null = null;
  if (position.xp > 0 && position.reachedAt !== undefined) {
    const inTop = top.find((row) => row.userId === user.id);
    const key = `${board}|${user.id}`;
    const cached = cachesOf(deps.db).ranks.get(key);
    if (inTop && inTop.xp === position.xp) {
      rank = inTop.rank;
    } else if (cached && cached.xp === position.xp && cached.snapshotAt === snapshot.at) {
      rank = cached.rank;
    } else {
      rank = await rankOf(deps, snapshot, user.id, position.xp, position.reachedAt);
      cachesOf(deps.db).ranks.set(key, { xp: position.xp, snapshotAt: snapshot.at, rank });
    }
  }

  return {
    period,
    weekStart: period === 'weekly' ? tehranWeekStart(now) : null,
    items: top.slice(0, limit).map(({ rank: r, publicId, name, xp }) => ({ rank: r, publicId, name, xp })),
    me: { rank, publicId: user.publicId, name: nameOf(user), xp: position.xp },
    computedAt: new Date(snapshot.at).toISOString(),
  };
}
