/**
 * A learner's entry on one leaderboard (issue 3 §3; DESIGN §3, §5, §14), in the layout of migration
 * `0006-sharded-boards` (issue 30):
 *
 * | pk            | sk                  | gsi1pk (the tie index)                | gsi1sk                          | TTL |
 * |---------------|---------------------|---------------------------------------|---------------------------------|-----|
 * | USER#<userId> | STANDING#<board>    | BOARD#<board>#<xp, 10>#<tie shard, 1> | <reachedAt ms, 13>#<userId, 10> | weekly boards only |
 *
 * `<board>` is `overall` or `week#<Saturday YYYY-MM-DD>` (board.ts). The index holds the learners at one XP value of
 * a board in tie order (who reached it first, then user id: docs/decisions.md "Leaderboards"), split into
 * {@link TIE_SHARDS} partitions by user id, so that a nationwide quiz that puts most of a grade on the same XP
 * spreads their writes (docs/capacity.md). Nothing reads a board whole on a request: the board snapshot
 * (snapshot.ts) holds the top and the counts, and a read counts only the caller's ties (read.ts).
 *
 * The entry carries the learner's `publicId` and `displayName` as the grant found them on the user item, so the top
 * list needs no read of the users (issue 15); a profile rename updates the entries of the current boards in its own
 * transaction (profile/, {@link renameOnBoard}), and both sides condition on the other's change (board.ts). Personal
 * data: deleted with the account (the current boards' entries in the deletion transaction, board.ts `leaveBoards`;
 * everything under the prefixes {@link BOARD_ENTRY_PREFIXES} by the account purge).
 *
 * Before migration 0006, entries were `BOARD#<board>` items ranked in one gsi1 partition per board (a hot partition
 * at national scale); {@link legacyEntryKey} names them for the migrations that read or remove them.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { countItems, getItem, queryAll, queryPage, updateItem } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** Sort-key prefix of the entries of migration 0006 on. */
export const BOARD_ENTRY_PREFIX = 'STANDING#';
/** Sort-key prefix of the entries before migration 0006 (kept for the migrations and the account purge). */
export const LEGACY_ENTRY_PREFIX = 'BOARD#';
/** Both prefixes: personal data of the learner. */
export const BOARD_ENTRY_PREFIXES: readonly string[] = [BOARD_ENTRY_PREFIX, LEGACY_ENTRY_PREFIX];

/** Partitions of the tie index per XP value of a board: a learner's is `userId mod TIE_SHARDS` (docs/capacity.md). */
export const TIE_SHARDS = 4;
/** Upper bound of XP a key can hold (10 digits). */
export const MAX_XP = 9_999_999_999;

export const boardEntryKey = (userId: number, board: string): Key => ({ pk: userPartition(userId), sk: `${BOARD_ENTRY_PREFIX}${board}` });
/** The key of an entry written before migration 0006. */
export const legacyEntryKey = (userId: number, board: string): Key => ({ pk: userPartition(userId), sk: `${LEGACY_ENTRY_PREFIX}${board}` });

/** The tie-index partition of `board` at `xp`, shard `shard`. */
const tiePartition = (board: string, xp: number, shard: number): string => `BOARD#${board}#${pad(xp, 10)}#${shard}`;
/** A place in tie order: who reached the XP first (epoch ms), then the user id. */
export interface TiePlace {
  reachedAt: number;
  userId: number;
}
/** The gsi1 sort key of a place. */
const tieKey = (p: TiePlace): string => `${pad(p.reachedAt, 13)}#${pad(p.userId, 10)}`;
/** The smallest key strictly after `p`, and the largest strictly before (keys are all `<13 digits>#<10 digits>`). */
const keyAfter = (p: TiePlace): string => `${pad(p.reachedAt, 13)}#${pad(p.userId + 1, 10)}`;
const keyBefore = (p: TiePlace): string =>
  p.userId > 0 ? `${pad(p.reachedAt, 13)}#${pad(p.userId - 1, 10)}` : `${pad(p.reachedAt - 1, 13)}#${pad(9_999_999_999, 10)}`;

/** The order of two places (negative: `a` is ahead). */
export const compareTies = (a: TiePlace, b: TiePlace): number => a.reachedAt - b.reachedAt || a.userId - b.userId;

export const BoardEntryItem = lazySchema(() =>
  z
    .object({
      userId: z.number().int().positive(),
      board: z.string(),
      xp: z.number().int().nonnegative(),
      /** Epoch ms of the grant that brought the learner to `xp`. */
      reachedAt: z.number().int(),
      /** The learner's publicId and display name (none: not set); absent on entries older than the names. */
      publicId: z.string().optional(),
      displayName: z.string().optional(),
      /** TTL, epoch seconds (weekly boards). */
      expiresAt: z.number().int().optional(),
    })
    .describe('board entry'),
);
export type BoardEntry = z.infer<typeof BoardEntryItem>;

/** What the top list reads of an entry (a projection). */
const RankedEntry = lazySchema(() =>
  BoardEntryItem.unwrap()
    .pick({ userId: true, xp: true, reachedAt: true, publicId: true, displayName: true })
    .describe('board entry (ranked)'),
);
export type RankedEntry = z.infer<typeof RankedEntry>;
/** What tie order needs of an entry. */
const TieEntry = lazySchema(() => BoardEntryItem.unwrap().pick({ userId: true, reachedAt: true }).describe('board entry (tie place)'));

/** Who stands on a board: the user item's names. */
export interface BoardName {
  publicId: string;
  displayName?: string | undefined;
}

/** The stored form of an entry (with its gsi1 tie-index attributes); `expiresAt` epoch seconds. */
export function boardEntryRecord(
  board: string,
  userId: number,
  who: BoardName,
  xp: number,
  reachedAt: number,
  expiresAt?: number,
): Key & Record<string, unknown> {
  const entry: BoardEntry = {
    userId,
    board,
    xp,
    reachedAt,
    publicId: who.publicId,
    ...(who.displayName ? { displayName: who.displayName } : {}),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
  return {
    ...boardEntryKey(userId, board),
    ...entry,
    gsi1pk: tiePartition(board, xp, userId % TIE_SHARDS),
    gsi1sk: tieKey({ reachedAt, userId }),
  };
}

/** Transaction item: the entry {@link boardEntryRecord} makes of the same arguments (`userId` on `board` at `xp`). */
export const putBoardEntry = (db: Db, ...entry: Parameters<typeof boardEntryRecord>): TxItem => put(db, boardEntryRecord(...entry));

/**
 * Transaction item: the learner's entry on `board` shows `displayName` (undefined: none, the publicId shows).
 * The entry must exist (the caller knows it does from the user item's board position).
 */
export const renameOnBoard = (db: Db, userId: number, board: string, displayName: string | undefined): TxItem =>
  displayName
    ? update(db, boardEntryKey(userId, board), 'SET displayName = :name', {
        condition: 'attribute_exists(pk)',
        values: { ':name': displayName },
      })
    : update(db, boardEntryKey(userId, board), 'REMOVE displayName', { condition: 'attribute_exists(pk)' });

/**
 * Writes the names of `who` on the learner's entry of `board` at `key` when it has none yet (data written before the
 * names; migration `0004-board-entry-names`): a conditional UpdateItem, nothing when the entry is missing or already
 * named.
 */
export async function nameOldEntry(db: Db, key: Key, who: BoardName): Promise<void> {
  try {
    await updateItem(db, key, who.displayName ? 'SET publicId = :p, displayName = :n' : 'SET publicId = :p', {
      condition: 'attribute_exists(pk) AND attribute_not_exists(publicId)',
      values: { ':p': who.publicId, ...(who.displayName ? { ':n': who.displayName } : {}) },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Transaction item: takes `userId` off `board`. */
export const removeBoardEntry = (db: Db, userId: number, board: string): TxItem => remove(db, boardEntryKey(userId, board));
/** Transaction item: removes the learner's entry of `board` written before migration 0006, if there is one. */
export const removeLegacyEntry = (db: Db, userId: number, board: string): TxItem => remove(db, legacyEntryKey(userId, board));

/** The learner's entry on `board`, or undefined. */
export const getBoardEntry = (db: Db, userId: number, board: string): Promise<BoardEntry | undefined> =>
  getItem(db, boardEntryKey(userId, board), BoardEntryItem);

/** The learner's entry of `board` written before migration 0006, or undefined. */
export const getLegacyEntry = (db: Db, userId: number, board: string): Promise<BoardEntry | undefined> =>
  getItem(db, legacyEntryKey(userId, board), BoardEntryItem);

const shards = Array.from({ length: TIE_SHARDS }, (_, shard) => shard);

/**
 * The first `limit` learners at exactly `xp` on `board`, in tie order, with their names: one gsi1 Query page per tie
 * shard, merged (eventually consistent). For the board snapshot.
 */
export async function entriesAt(db: Db, board: string, xp: number, limit: number): Promise<RankedEntry[]> {
  const projection = ['userId', 'xp', 'reachedAt', 'publicId', 'displayName'];
  const pages = await Promise.all(
    shards.map((shard) => queryPage(db, { index: 'gsi1', partition: tiePartition(board, xp, shard), projection, limit }, RankedEntry)),
  );
  return pages
    .flatMap((page) => page.items)
    .sort(compareTies)
    .slice(0, limit);
}

/** Read units a second the snapshot job may take of one tie partition (a third of DynamoDB's 3,000). */
export const TIE_READ_UNITS_PER_SECOND = 1_000;
/** Read units of a full page (1 MB, eventually consistent). */
const PAGE_UNITS = 128;

/**
 * Every learner at exactly `xp` on `board`, in tie order (all pages of every tie shard, each shard paced at
 * {@link TIE_READ_UNITS_PER_SECOND}: a crowded value's tens of thousands of entries must not starve its readers).
 * For the board snapshot's markers.
 */
export async function tieOrder(db: Db, board: string, xp: number): Promise<TiePlace[]> {
  const all = await Promise.all(
    shards.map(async (shard) => {
      const places: TiePlace[] = [];
      let cursor: string | undefined;
      do {
        const started = Date.now();
        const spec = { index: 'gsi1' as const, partition: tiePartition(board, xp, shard), projection: ['userId', 'reachedAt'] };
        const page = await queryPage(db, spec, TieEntry, cursor);
        places.push(...page.items);
        cursor = page.nextCursor;
        const due = (PAGE_UNITS / TIE_READ_UNITS_PER_SECOND) * 1000 - (Date.now() - started);
        if (cursor && due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      } while (cursor);
      return places;
    }),
  );
  return all.flat().sort(compareTies);
}

/**
 * The learners at exactly `xp` on `board` strictly between `after` (exclusive; undefined: from the first) and `before`
 * (exclusive) in tie order: one COUNT Query per tie shard (eventually consistent).
 */
export async function countTiesBetween(db: Db, board: string, xp: number, after: TiePlace | undefined, before: TiePlace): Promise<number> {
  const range: [string, string] | undefined = after ? [keyAfter(after), keyBefore(before)] : undefined;
  if (range && range[0] > range[1]) return 0; // nothing can lie between them
  const sortKey = range ? { between: range } : { lt: tieKey(before) };
  const counts = await Promise.all(
    shards.map((shard) => countItems(db, { index: 'gsi1', partition: tiePartition(board, xp, shard), sortKey })),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

/** Every learner on `board` at the XP values `xps`, in rank order (XP descending, then tie order). For checks and tools, not for requests. */
export async function entriesOf(db: Db, board: string, xps: number[]): Promise<BoardEntry[]> {
  const out: BoardEntry[] = [];
  for (const xp of [...xps].sort((a, b) => b - a)) {
    const all = await Promise.all(
      shards.map((shard) => queryAll(db, { index: 'gsi1', partition: tiePartition(board, xp, shard) }, BoardEntryItem)),
    );
    out.push(...all.flat().sort(compareTies));
  }
  return out;
}
