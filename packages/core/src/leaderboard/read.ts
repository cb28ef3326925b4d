/**
 * Reading a leaderboard (`GET /api/leaderboard?period=weekly|overall`, issue 3 §3; spec "Progress":
 * computed live, cached 60 seconds; DESIGN §3, §5).
 *
 * Cost per read, whatever the number of learners (measured in docs/performance.md):
 * - the top {@link TOP_SIZE}: one gsi1 Query (entries in rank order, with the learners' names:
 *   boardEntry.entity.ts), cached 60 s per board in this worker;
 * - the caller's own rank: the user item is already loaded by the auth check (which also counts the throttle
 *   hit, in the same request); one Query of the board's XP
 *   histogram (histogram.entity.ts: one item per distinct XP value, so one page) gives the learners strictly
 *   above, and, at the same time, one COUNT Query over the entries at exactly the caller's XP that reached it
 *   earlier breaks the tie. Cached 60 s per learner and board, keyed by the learner's XP so their own change
 *   shows at once. No Scan anywhere.
 *
 * A learner with no XP in the period has no entry and no rank (`rank: null`).
 */
import { LRUCache } from 'lru-cache';
import * as z from 'zod';
import { type User, userKey } from '../auth';
import { tehranWeekStart } from '../calendar/tehran';
import { getItems } from '../db/items';
import type { Deps } from '../deps';
import { OVERALL_BOARD, weeklyBoard, weeklyPosition } from './board';
import { countTiesUpTo, topEntries } from './boardEntry.entity';
import { learnersAbove } from './histogram.entity';

export type Period = 'weekly' | 'overall';

/** How long a board's top and a learner's rank are reused, seconds (spec Limits: leaderboard cache). */
export const LEADERBOARD_CACHE_SECONDS = 60;
/** Entries read and cached per board; `limit` picks a prefix of them. */
export const TOP_SIZE = 100;

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
  /** When the top list was read from the table (ISO); it is reused for 60 s. */
  computedAt: string;
}

interface CachedTop {
  at: number;
  rows: LeaderboardRow[];
  userIds: number[];
}
interface CachedRank {
  at: number;
  xp: number;
  rank: number;
}

// Per worker; keyed by table so that several stacks in one process (tests) never share entries.
const topCache = new LRUCache<string, CachedTop>({ max: 64 });
const rankCache = new LRUCache<string, CachedRank>({ max: 50_000 });

const fresh = (at: number, now: number) => now - at < LEADERBOARD_CACHE_SECONDS * 1000;
const nameOf = (u: { displayName?: string; publicId: string }) => u.displayName || u.publicId;

/** What the top list needs of a learner whose entry has no names yet (written before them). */
const UserName = z.object({ id: z.number().int(), publicId: z.string(), displayName: z.string().optional() }).describe('user (name)');

/** The board's top, named by the entries themselves; entries older than the names are looked up (one BatchGet). */
async function readTop(deps: Deps, board: string): Promise<CachedTop> {
  const entries = await topEntries(deps.db, board, TOP_SIZE);
  const unnamed = entries.filter((e) => e.publicId === undefined);
  const users = new Map(
    unnamed.length
      ? (
          await getItems(
            deps.db,
            unnamed.map((e) => userKey(e.userId)),
            UserName,
          )
        ).map((u) => [u.id, u])
      : [],
  );
  // An unnamed entry whose learner is gone (deleted between the two reads) is left out; ranks stay those of the board.
  const rows: LeaderboardRow[] = [];
  const userIds: number[] = [];
  entries.forEach((entry, index) => {
    const who = entry.publicId === undefined ? users.get(entry.userId) : { publicId: entry.publicId, displayName: entry.displayName };
    if (!who) return;
    rows.push({ rank: index + 1, publicId: who.publicId, name: nameOf(who), xp: entry.xp });
    userIds.push(entry.userId);
  });
  return { at: deps.clock.now(), rows, userIds };
}

/** 1 + learners with more XP + learners with the same XP who reached it earlier. */
async function rankOf(deps: Deps, board: string, userId: number, xp: number, reachedAt: number): Promise<number> {
  const [above, tiesUpToMe] = await Promise.all([learnersAbove(deps.db, board, xp), countTiesUpTo(deps.db, board, xp, reachedAt, userId)]);
  // The index is eventually consistent: just after a grant the caller's own entry may not be there yet.
  return 1 + above + Math.max(0, tiesUpToMe - 1);
}

/**
 * The leaderboard of `period` for the signed-in `user` (the user item as the request loaded it): the top
 * `limit` (1 to {@link TOP_SIZE}) and the caller's own rank, even outside the top.
 */
export async function leaderboard(deps: Deps, user: User, period: Period, limit = 50): Promise<Leaderboard> {
  const now = deps.clock.now();
  const board = period === 'overall' ? OVERALL_BOARD : weeklyBoard(now);
  const tableKey = `${deps.db.tableName}|${board}`;

  let top = topCache.get(tableKey);
  if (!top || !fresh(top.at, now)) {
    top = await readTop(deps, board);
    topCache.set(tableKey, top);
  }

  const position = period === 'overall' ? { xp: user.xp, reachedAt: user.xpReachedAt } : weeklyPosition(user, now);
  let rank: number | null = null;
  if (position.xp > 0 && position.reachedAt !== undefined) {
    const inTop = top.userIds.indexOf(user.id);
    const cachedRank = rankCache.get(`${tableKey}|${user.id}`);
    if (inTop >= 0 && top.rows[inTop]?.xp === position.xp) {
      rank = top.rows[inTop]?.rank ?? null;
    } else if (cachedRank && cachedRank.xp === position.xp && fresh(cachedRank.at, now)) {
      rank = cachedRank.rank;
    } else {
      rank = await rankOf(deps, board, user.id, position.xp, position.reachedAt);
      rankCache.set(`${tableKey}|${user.id}`, { at: now, xp: position.xp, rank });
    }
  }

  return {
    period,
    weekStart: period === 'weekly' ? tehranWeekStart(now) : null,
    items: top.rows.slice(0, limit),
    me: { rank, publicId: user.publicId, name: nameOf(user), xp: position.xp },
    computedAt: new Date(top.at).toISOString(),
  };
}
