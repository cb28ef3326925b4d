/**
 * Writing the leaderboards (issue 3 §3; spec "Progress": leaderboard entry, two periods, weekly includes
 * island XP; DESIGN §3 weeks run Saturday to Friday, Tehran time; DESIGN §5 no O(users) reads).
 *
 * Two boards are live at any time: `overall` and `week#<Saturday>` of the current Tehran week. Every XP
 * grant (a lesson's XP, an island's XP and star bonus) moves the learner on both, inside the same
 * conditional transaction as the grant, through {@link xpMove}:
 *
 * - the learner's entry (boardEntry.entity.ts) holds `xp` and `reachedAt` (epoch ms of the grant) and sits in
 *   gsi1 in rank order: a Query with a Limit reads the top N;
 * - the board's XP histogram (histogram.entity.ts) has one bucket per distinct XP value: the grant takes 1
 *   from the old value's bucket and adds 1 to the new one.
 *
 * The user item carries the same numbers (`xp`, `xpReachedAt`, `weekKey`, `weekXp`, `weekXpReachedAt`) so a
 * request that loaded the user knows its old position without another read, and the transaction's condition
 * `xp = <old xp>` on the user item makes a concurrent grant fail and retry instead of moving the learner twice
 * from the same bucket.
 *
 * Entries also carry the learner's names (boardEntry.entity.ts), copied from the user item by the grant. The two
 * writers of a name keep each other honest: a grant's condition includes the display name it copies (a rename
 * in between fails it, and it retries with the new name), and a rename ({@link renameItems}) conditions on
 * `xpReachedAt`, which every grant changes (a grant in between fails it, and it retries knowing the entries).
 */
import { type User, type UserChange, type UserCondition, userCondition } from '../auth';
import { tehranWeekStart, weekKey } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import type { TxItem } from '../db/transact';
import { putBoardEntry, removeBoardEntry, renameOnBoard } from './boardEntry.entity';
import { moveBucket } from './histogram.entity';

/** Weekly entries and buckets are kept this long after their week ends (then DynamoDB TTL removes them). */
export const WEEKLY_KEEP_DAYS = 35;

export const OVERALL_BOARD = 'overall';

/** The board id of the Tehran week of `nowMs`: `week#<Saturday YYYY-MM-DD>`. */
export const weeklyBoard = (nowMs: number): string => `week#${weekKey(nowMs)}`;

/** The leaderboard fields of the user item. */
export type BoardFields = Pick<User, 'id' | 'publicId' | 'displayName' | 'xp' | 'xpReachedAt' | 'weekKey' | 'weekXp' | 'weekXpReachedAt'>;

/** The learner's XP and when it was reached on the week of `nowMs` (0 when they earned nothing that week). */
export function weeklyPosition(user: BoardFields, nowMs: number): { xp: number; reachedAt: number | undefined } {
  return user.weekKey === weekKey(nowMs) ? { xp: user.weekXp ?? 0, reachedAt: user.weekXpReachedAt } : { xp: 0, reachedAt: undefined };
}

/** What an XP grant adds to its transaction: board items, and a change and a condition of the user item. */
export interface XpMove {
  items: TxItem[];
  /** The user item's board fields after the move (none when nothing moves). */
  user: UserChange;
  /** Condition on the user item: its XP (and display name) are still those the move started from. */
  condition: UserCondition;
}

const weekEndsAt = (nowMs: number): number => Date.parse(`${tehranWeekStart(nowMs)}T00:00:00+03:30`) + 7 * 86_400_000;

/** The items that move `user` on `board` from `oldXp` to `newXp` at `nowMs`: the entry and the two buckets. */
function boardItems(db: Db, board: string, user: BoardFields, oldXp: number, newXp: number, nowMs: number, expiresAt?: number): TxItem[] {
  return [
    putBoardEntry(db, board, user.id, user, newXp, nowMs, expiresAt),
    ...(oldXp > 0 ? [moveBucket(db, board, oldXp, -1, expiresAt)] : []),
    moveBucket(db, board, newXp, 1, expiresAt),
  ];
}

/**
 * The leaderboard part of granting `gained` XP (a positive integer) to `user` at `nowMs` (epoch ms): moves
 * the learner on the overall board and on the board of the current Tehran week. `user` must be the user
 * item as last read: the returned condition fails (and the caller re-reads and retries) when another grant
 * changed the XP in between. A grant of 0 moves nothing.
 */
export function xpMove(db: Db, user: BoardFields, gained: number, nowMs: number): XpMove {
  if (gained <= 0) return { items: [], user: {}, condition: userCondition.exists() };
  const week = weeklyPosition(user, nowMs);
  const board = weeklyBoard(nowMs);
  const expiresAt = epochSeconds(weekEndsAt(nowMs)) + WEEKLY_KEEP_DAYS * 86_400;
  return {
    items: [
      ...boardItems(db, OVERALL_BOARD, user, user.xp, user.xp + gained, nowMs),
      ...boardItems(db, board, user, week.xp, week.xp + gained, nowMs, expiresAt),
    ],
    user: { set: { xpReachedAt: nowMs, weekKey: weekKey(nowMs), weekXp: week.xp + gained, weekXpReachedAt: nowMs } },
    // The entries copy the display name: a rename since the user was read fails the grant (it retries).
    condition: userCondition.all(
      userCondition.exists(),
      userCondition.is({ xp: user.xp }),
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
  };
}

/**
 * What a change of the learner's display name adds to its transaction (profile/): the rename of their entries on
 * the current boards (overall, and the current Tehran week's when they earned XP in it), and the condition on the
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
  if (user.xp > 0) items.push(renameOnBoard(db, user.id, OVERALL_BOARD, displayName));
  if (weeklyPosition(user, nowMs).xp > 0) items.push(renameOnBoard(db, user.id, weeklyBoard(nowMs), displayName));
  const condition =
    user.xpReachedAt === undefined ? userCondition.lacks('xpReachedAt') : userCondition.is({ xpReachedAt: user.xpReachedAt });
  return { items, condition };
}

/**
 * Items that take a learner off the boards for good (account deletion): the overall entry and the current
 * week's entry, with their histogram buckets. Entries of past weeks are no longer shown and expire by TTL.
 */
export function leaveBoards(db: Db, user: BoardFields, nowMs: number): TxItem[] {
  const items: TxItem[] = [];
  const drop = (board: string, xp: number) => {
    if (xp <= 0) return;
    items.push(removeBoardEntry(db, user.id, board), moveBucket(db, board, xp, -1));
  };
  drop(OVERALL_BOARD, user.xp);
  drop(weeklyBoard(nowMs), weeklyPosition(user, nowMs).xp);
  return items;
}
