/**
 * Writing the leaderboards (issue 3 §3; spec "Progress": leaderboard entry, two periods, weekly includes
 * island XP; DESIGN §3 weeks run Saturday to Friday, Tehran time; DESIGN §5 no O(users) reads; DESIGN §14 no hot
 * key).
 *
 * Two boards are live at any time: `overall` and `week#<Saturday>` of the current Tehran week. Every XP
 * grant (a lesson's XP, an island's XP and star bonus) moves the learner on both, inside the same
 * conditional transaction as the grant, through {@link xpMove}, the one entry point of every grant:
 *
 * - the learner's entry (boardEntry.entity.ts) holds `xp` and `reachedAt` (epoch ms of the grant) and sits in the
 *   tie index of its XP value;
 * - the board's XP histogram (histogram.entity.ts), write-sharded by learner: the grant takes 1 from the old
 *   value's bucket and adds 1 to the new one, both in the learner's shard.
 *
 * No item that many learners share is in a grant's transaction but the histogram buckets, split by learner into
 * `HISTOGRAM_SHARDS` (histogram.entity.ts; docs/capacity.md). The user item carries the same numbers (`xp`, `xpReachedAt`,
 * `weekKey`, `weekXp`, `weekXpReachedAt`) and where the entries stand (`boardXp`, `boardWeek`, `boardWeekXp`), so a
 * request that loaded the user knows the old position without another read; the transaction's condition
 * `xp = <old xp>` (and the board position read) on the user item makes a concurrent grant fail and retry instead of
 * moving the learner twice from the same bucket.
 *
 * Entries also carry the learner's names (boardEntry.entity.ts), copied from the user item by the grant. The two
 * writers of a name keep each other honest: a grant's condition includes the display name it copies (a rename
 * in between fails it, and it retries with the new name), and a rename ({@link renameItems}) conditions on
 * `xpReachedAt`, which every grant changes (a grant in between fails it, and it retries knowing the entries).
 *
 * A learner whose entries are still those of before migration 0006 (no `boardXp`; the migration missed them, a
 * grant by the previous release during the deploy) enters the new boards at their first grant, which also removes
 * the old entry.
 */
import { type User, type UserChange, type UserCondition, userCondition } from '../auth';
import { weekKey } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import type { TxItem } from '../db/transact';
import { putBoardEntry, removeBoardEntry, removeLegacyEntry, renameOnBoard } from './boardEntry.entity';
import { moveBucket } from './histogram.entity';

/** Weekly entries and buckets are kept this long after their week ends (then DynamoDB TTL removes them). */
export const WEEKLY_KEEP_DAYS = 35;

export const OVERALL_BOARD = 'overall';

/** The board id of the Tehran week of `nowMs`: `week#<Saturday YYYY-MM-DD>`. */
export const weeklyBoard = (nowMs: number): string => `week#${weekKey(nowMs)}`;

/** The boards shown at `nowMs` (epoch ms): overall and this Tehran week's. */
export const currentBoards = (nowMs: number): string[] => [OVERALL_BOARD, weeklyBoard(nowMs)];

/** The leaderboard fields of the user item. */
export type BoardFields = Pick<
  User,
  | 'id'
  | 'publicId'
  | 'displayName'
  | 'xp'
  | 'xpReachedAt'
  | 'weekKey'
  | 'weekXp'
  | 'weekXpReachedAt'
  | 'boardXp'
  | 'boardWeek'
  | 'boardWeekXp'
>;

/** The learner's XP and when it was reached on the week of `nowMs` (0 when they earned nothing that week). */
export function weeklyPosition(user: BoardFields, nowMs: number): { xp: number; reachedAt: number | undefined } {
  return user.weekKey === weekKey(nowMs) ? { xp: user.weekXp ?? 0, reachedAt: user.weekXpReachedAt } : { xp: 0, reachedAt: undefined };
}

/** Where the learner's entries stand at `nowMs`: overall, and on this week's board (undefined: no entry there). */
function entriesAt(user: BoardFields, nowMs: number): { overall: number | undefined; weekly: number | undefined } {
  return { overall: user.boardXp, weekly: user.boardWeek === weekKey(nowMs) ? user.boardWeekXp : undefined };
}

/** What an XP grant adds to its transaction: board items, and a change and a condition of the user item. */
export interface XpMove {
  items: TxItem[];
  /** The user item's board fields after the move (none when nothing moves). */
  user: UserChange;
  /** Condition on the user item: its XP, board position (and display name) are still those the move started from. */
  condition: UserCondition;
}

/** TTL (epoch seconds) of the entries, buckets and snapshot of the weekly board that begins on Saturday `saturday`. */
const weeklyExpiresAt = (saturday: string): number =>
  epochSeconds(Date.parse(`${saturday}T00:00:00+03:30`) + 7 * 86_400_000) + WEEKLY_KEEP_DAYS * 86_400;

/** TTL (epoch seconds) of the items of `board`: weekly boards expire, the overall board does not. */
export const boardExpiresAt = (board: string): number | undefined =>
  board.startsWith('week#') ? weeklyExpiresAt(board.slice('week#'.length)) : undefined;

/**
 * The items that move `user` on `board` to `newXp` at `nowMs`: the entry (replacing the one at `oldXp`, if any), the
 * two buckets, and the removal of an entry from before migration 0006 when `legacy`.
 */
function boardItems(
  db: Db,
  board: string,
  user: BoardFields,
  move: { from: number | undefined; to: number; legacy: boolean },
  nowMs: number,
): TxItem[] {
  const expiresAt = boardExpiresAt(board);
  return [
    putBoardEntry(db, board, user.id, user, move.to, nowMs, expiresAt),
    ...(move.from ? [moveBucket(db, board, user.id, move.from, -1, expiresAt)] : []),
    moveBucket(db, board, user.id, move.to, 1, expiresAt),
    ...(move.legacy ? [removeLegacyEntry(db, user.id, board)] : []),
  ];
}

/**
 * The leaderboard part of granting `gained` XP (a positive integer) to `user` at `nowMs` (epoch ms): moves
 * the learner on the overall board and on the board of the current Tehran week. `user` must be the user
 * item as last read: the returned condition fails (and the caller re-reads and retries) when another grant
 * changed the XP or the board position in between. A grant of 0 moves nothing.
 */
export function xpMove(db: Db, user: BoardFields, gained: number, nowMs: number): XpMove {
  if (gained <= 0) return { items: [], user: {}, condition: userCondition.exists() };
  const week = weeklyPosition(user, nowMs);
  const from = entriesAt(user, nowMs);
  const overall = { from: from.overall, to: user.xp + gained, legacy: from.overall === undefined && user.xp > 0 };
  const weekly = { from: from.weekly, to: week.xp + gained, legacy: from.weekly === undefined && week.xp > 0 };
  const thisWeek = weekKey(nowMs);
  return {
    items: [...boardItems(db, OVERALL_BOARD, user, overall, nowMs), ...boardItems(db, weeklyBoard(nowMs), user, weekly, nowMs)],
    user: {
      set: {
        xpReachedAt: nowMs,
        weekKey: thisWeek,
        weekXp: weekly.to,
        weekXpReachedAt: nowMs,
        boardXp: overall.to,
        boardWeek: thisWeek,
        boardWeekXp: weekly.to,
      },
    },
    condition: userCondition.all(
      userCondition.exists(),
      userCondition.is({ xp: user.xp }),
      from.overall === undefined ? userCondition.lacks('boardXp') : userCondition.is({ boardXp: from.overall }),
      from.weekly === undefined
        ? userCondition.isNot('boardWeek', thisWeek)
        : userCondition.is({ boardWeek: thisWeek, boardWeekXp: from.weekly }),
      // The entries copy the display name: a rename since the user was read fails the grant (it retries).
      user.displayName ? userCondition.is({ displayName: user.displayName }) : userCondition.lacks('displayName'),
    ),
  };
}

/** `user` as it is after a successful grant of `gained` XP at `nowMs` (saves re-reading it for a second grant). */
export function afterGrant<T extends BoardFields>(user: T, gained: number, nowMs: number): T {
  if (gained <= 0) return user;
  const week = weeklyPosition(user, nowMs);
  return {
    ...user,
    xp: user.xp + gained,
    xpReachedAt: nowMs,
    weekKey: weekKey(nowMs),
    weekXp: week.xp + gained,
    weekXpReachedAt: nowMs,
    boardXp: user.xp + gained,
    boardWeek: weekKey(nowMs),
    boardWeekXp: week.xp + gained,
  };
}

/**
 * What a change of the learner's display name adds to its transaction (profile/): the rename of their entries on
 * the current boards (overall, and the current Tehran week's when they stand on it), and the condition on the
 * user item that no grant happened since `user` was read (`xpReachedAt` unchanged), so the entries named are the
 * entries there are. `displayName` undefined: the name is cleared (the publicId shows).
 */
export function renameItems(
  db: Db,
  user: BoardFields,
  displayName: string | undefined,
  nowMs: number,
): { items: TxItem[]; condition: UserCondition } {
  const items: TxItem[] = [];
  const at = entriesAt(user, nowMs);
  if (at.overall) items.push(renameOnBoard(db, user.id, OVERALL_BOARD, displayName));
  if (at.weekly) items.push(renameOnBoard(db, user.id, weeklyBoard(nowMs), displayName));
  const condition =
    user.xpReachedAt === undefined ? userCondition.lacks('xpReachedAt') : userCondition.is({ xpReachedAt: user.xpReachedAt });
  return { items, condition };
}

/**
 * Items that take a learner off the boards for good (account deletion): the overall entry and the current
 * week's entry, with their histogram buckets. Entries of past weeks are no longer shown and expire by TTL; entries
 * from before migration 0006 go with the account's other personal items.
 */
export function leaveBoards(db: Db, user: BoardFields, nowMs: number): TxItem[] {
  const items: TxItem[] = [];
  const at = entriesAt(user, nowMs);
  const drop = (board: string, xp: number | undefined) => {
    if (!xp) return;
    items.push(removeBoardEntry(db, user.id, board), moveBucket(db, board, user.id, xp, -1));
  };
  drop(OVERALL_BOARD, at.overall);
  drop(weeklyBoard(nowMs), at.weekly);
  return items;
}
