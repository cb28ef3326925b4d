/**
 * A learner's entry on one leaderboard (issue 3 §3; DESIGN §3, §5).
 *
 * | pk             | sk              | gsi1pk          | gsi1sk                                            | TTL |
 * |----------------|-----------------|-----------------|---------------------------------------------------|-----|
 * | USER#<userId>  | BOARD#<board>   | BOARD#<board>   | <9999999999 - xp, 10>#<reachedAt ms, 13>#<userId, 10> | weekly boards only |
 *
 * `<board>` is `overall` or `week#<Saturday YYYY-MM-DD>` (board.ts). The gsi1 sort key orders a board by XP
 * descending, then by the time the XP was reached ascending (ties break by who got there first), then by user
 * id: a Query with a Limit reads the top N in rank order. Replaced whole by every grant.
 *
 * The entry carries the learner's `publicId` and `displayName` as the grant found them on the user item, so the
 * top list needs no read of the users (issue 15); a profile rename updates the entries of the current boards in
 * its own transaction (profile/, {@link renameOnBoard}), and both sides condition on the other's change
 * (board.ts). Entries written before the names were stored lack them until migration `0004-board-entry-names`
 * fills them; the reader looks such names up (read.ts). Personal data: deleted with the account (the current
 * boards' entries in the deletion transaction, board.ts `leaveBoards`).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { countItems, getItem, queryAll, queryPage, updateItem } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, remove, type TxItem, update } from '../db/transact';

export const BOARD_ENTRY_PREFIX = 'BOARD#';
/** Upper bound of XP a rank key can hold (10 digits). */
export const MAX_XP = 9_999_999_999;

export const boardEntryKey = (userId: number, board: string): Key => ({ pk: userPartition(userId), sk: `${BOARD_ENTRY_PREFIX}${board}` });

/** The gsi1 partition of a board: its entries in rank order. */
const boardPartition = (board: string): string => `BOARD#${board}`;
/** The gsi1 sort key of an entry: XP descending, then reachedAt (epoch ms) ascending, then user id. */
const rankKey = (xp: number, reachedAt: number, userId: number): string =>
  `${pad(MAX_XP - xp, 10)}#${pad(reachedAt, 13)}#${pad(userId, 10)}`;
/** The smallest rank key of any entry with exactly `xp`. */
const rankKeyFloor = (xp: number): string => `${pad(MAX_XP - xp, 10)}#`;

export const BoardEntryItem = z
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
  .describe('board entry');
export type BoardEntry = z.infer<typeof BoardEntryItem>;

/** What the top list reads of an entry (a projection). */
const RankedEntry = BoardEntryItem.pick({ userId: true, xp: true, publicId: true, displayName: true }).describe('board entry (ranked)');
export type RankedEntry = z.infer<typeof RankedEntry>;

/** Who stands on a board: the user item's names. */
export interface BoardName {
  publicId: string;
  displayName?: string | undefined;
}

/** The stored form of an entry (with its gsi1 rank attributes); `expiresAt` epoch seconds. */
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
  return { ...boardEntryKey(userId, board), ...entry, gsi1pk: boardPartition(board), gsi1sk: rankKey(xp, reachedAt, userId) };
}

/** Transaction item: `userId` (named `who`) stands on `board` at `xp`, reached at `reachedAt` (epoch ms); `expiresAt` epoch seconds. */
export const putBoardEntry = (
  db: Db,
  board: string,
  userId: number,
  who: BoardName,
  xp: number,
  reachedAt: number,
  expiresAt?: number,
): TxItem => put(db, boardEntryRecord(board, userId, who, xp, reachedAt, expiresAt));

/**
 * Transaction item: the learner's entry on `board` shows `displayName` (undefined: none, the publicId shows).
 * The entry must exist (the caller knows it does from the user item's XP).
 */
export const renameOnBoard = (db: Db, userId: number, board: string, displayName: string | undefined): TxItem =>
  displayName
    ? update(db, boardEntryKey(userId, board), 'SET displayName = :name', {
        condition: 'attribute_exists(pk)',
        values: { ':name': displayName },
      })
    : update(db, boardEntryKey(userId, board), 'REMOVE displayName', { condition: 'attribute_exists(pk)' });

/**
 * Writes the names of `who` on the learner's entry of `board` when the entry has none yet (data written before
 * the names; migration `0004-board-entry-names`): a conditional UpdateItem, nothing when the entry is missing or
 * already named.
 */
export async function nameOldEntry(db: Db, userId: number, board: string, who: BoardName): Promise<void> {
  try {
    await updateItem(db, boardEntryKey(userId, board), who.displayName ? 'SET publicId = :p, displayName = :n' : 'SET publicId = :p', {
      condition: 'attribute_exists(pk) AND attribute_not_exists(publicId)',
      values: { ':p': who.publicId, ...(who.displayName ? { ':n': who.displayName } : {}) },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Transaction item: takes `userId` off `board`. */
export const removeBoardEntry = (db: Db, userId: number, board: string): TxItem => remove(db, boardEntryKey(userId, board));

/** The learner's entry on `board`, or undefined. */
export const getBoardEntry = (db: Db, userId: number, board: string): Promise<BoardEntry | undefined> =>
  getItem(db, boardEntryKey(userId, board), BoardEntryItem);

/** The first `limit` entries of `board` in rank order, with their names (one gsi1 Query page, eventually consistent). */
export async function topEntries(db: Db, board: string, limit: number): Promise<RankedEntry[]> {
  const projection = ['userId', 'xp', 'publicId', 'displayName'];
  return (await queryPage(db, { index: 'gsi1', partition: boardPartition(board), projection, limit }, RankedEntry)).items;
}

/** Every entry of `board`, in rank order (gsi1, all pages; eventually consistent). For checks, not for requests. */
export const boardEntries = (db: Db, board: string): Promise<BoardEntry[]> =>
  queryAll(db, { index: 'gsi1', partition: boardPartition(board) }, BoardEntryItem);

/**
 * Entries of `board` at exactly `xp` that rank at or before the entry (`xp`, `reachedAt`, `userId`), that
 * entry included when the index already holds it (a gsi1 COUNT Query; eventually consistent).
 */
export const countTiesUpTo = (db: Db, board: string, xp: number, reachedAt: number, userId: number): Promise<number> =>
  countItems(db, {
    index: 'gsi1',
    partition: boardPartition(board),
    sortKey: { between: [rankKeyFloor(xp), rankKey(xp, reachedAt, userId)] },
  });
