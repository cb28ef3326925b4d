/**
 * The learner's user item and its two unique-constraint items (spec "User and profile"; DESIGN §5).
 *
 * | item               | pk                    | sk        | notes                                   |
 * |--------------------|-----------------------|-----------|-----------------------------------------|
 * | user               | USER#<userId>         | PROFILE   | the learner's state, see {@link UserItem} |
 * | phone → user       | PHONE#<phone>         | PHONE     | unique constraint, phone exactly as sent |
 * | publicId → user    | PUBLICID#<publicId>   | PUBLICID  | unique constraint                       |
 *
 * The staff's list and search of learners read the directory (directory.entry.ts, gsi2 `USERS`); the user item
 * itself was in that index until migration `0007-user-directory` (every write of it rewrote the index copy).
 *
 * The user item is the one aggregate several domains write, each its own fields, always with explicit
 * conditional updates on {@link userKey}: hearts (hearts/), XP, stars and streak (progress/), board
 * positions (leaderboard/), profile fields (profile/), the read marker (notifications/), the subscription and
 * referral fields (subscriptions/). Its schema lives here, at the bottom of the domain graph, so every domain
 * can read it without an import loop.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, getItems } from '../db/items';
import { type Key, userPartition } from '../db/keys';

export const userKey = (userId: number): Key => ({ pk: userPartition(userId), sk: 'PROFILE' });
export const phoneKey = (phone: string): Key => ({ pk: `PHONE#${phone}`, sk: 'PHONE' });
export const publicIdKey = (publicId: string): Key => ({ pk: `PUBLICID#${publicId}`, sk: 'PUBLICID' });

const count = z.number().int().nonnegative();
const epochMs = z.number().int();

/** The learner's subscription as stored on the user item (written by subscriptions/ when an order is paid). */
export const StoredSubscription = z.object({
  /** Plan of the latest paid order. */
  planId: z.number().int(),
  /** The plan title as snapshotted on that order. */
  planTitle: z.string(),
  /** Tutor questions per Tehran day while active (the plan's aiDailyQuota). */
  aiDailyQuota: count,
  /** End of the paid period, epoch ms. */
  expiresAt: epochMs,
  /**
   * What set the end: a marketplace subscription's period, or paid days (gateway, or an in-app purchase). Absent on
   * items written before it (read as `gateway`). The arithmetic: subscriptions/period.ts.
   */
  source: z.enum(['gateway', 'marketplace']).optional(),
  /** While a marketplace subscription runs: its period end as the marketplace last said (`validUntil`), epoch ms. */
  storeUntil: epochMs.optional(),
  /** While a marketplace subscription runs: paid days (ms) held for after its period; `expiresAt = storeUntil + carriedMs`. */
  carriedMs: count.optional(),
});
export type StoredSubscription = z.infer<typeof StoredSubscription>;

export const UserItem = z
  .object({
    id: z.number().int().positive(),
    /** `User` + 6 digits (spec "User and profile"). */
    publicId: z.string(),
    /** Stored exactly as sent: two spellings of one number are two users. */
    phone: z.string(),
    /** ISO time of creation. */
    createdAt: z.string(),
    /** The one live session; a new login replaces it, which revokes every earlier token (spec Authentication 10). */
    sessionId: z.string().optional(),
    lastLoginAt: z.string().optional(),

    /** hearts/: stored count and the time (epoch ms) it was stored; the current count is derived. */
    hearts: count,
    heartsUpdatedAt: epochMs,
    /** Epoch ms the learner ran out of hearts; cleared when the refill notification is created. */
    heartsEmptyAt: epochMs.optional(),

    /** progress/: totals and counters. */
    xp: count,
    stars: count,
    answeredCount: count.optional(),
    correctCount: count.optional(),
    completedNodes: count.optional(),
    completedLessons: count.optional(),
    /** progress/: the streak in Tehran days (YYYY-MM-DD). */
    streakCurrent: count.optional(),
    streakLongest: count.optional(),
    streakLastDay: z.string().optional(),
    /** progress/: streak freezes held (0-2), and used in all (DESIGN §13). */
    streakFreezes: count.optional(),
    streakFreezesUsed: count.optional(),
    /** progress/: questions of the mistakes review answered right out of its last Leitner box (DESIGN §13). */
    reviewMastered: count.optional(),

    /** leaderboard/: when `xp` was reached (epoch ms), and the XP of the Tehran week starting on Saturday `weekKey`. */
    xpReachedAt: epochMs.optional(),
    weekKey: z.string().optional(),
    weekXp: count.optional(),
    weekXpReachedAt: epochMs.optional(),
    /**
     * leaderboard/: where the learner's entries and histogram buckets stand (board.ts): the overall XP, and the week
     * (`weekKey` form) and XP of the weekly board. Written by grants with the entries, so they equal `xp` and `weekXp`
     * except for a grant made by a release before migration 0006, which the next grant mends.
     */
    boardXp: count.optional(),
    boardWeek: z.string().optional(),
    boardWeekXp: count.optional(),

    /** profile/. */
    gradeId: z.number().int().positive().optional(),
    displayName: z.string().optional(),
    /** Jalali `YYYY/MM/DD`. */
    birthDate: z.string().optional(),
    birthYear: z.number().int().optional(),

    /** notifications/: notifications with ids up to this one are read. */
    notificationsReadUpTo: count.optional(),

    /** subscriptions/. */
    subscription: StoredSubscription.optional(),
    referralCode: z.string().optional(),
    /** User id of the referrer. */
    referredBy: z.number().int().optional(),
    referredAt: epochMs.optional(),
    /** The first paid order with an amount above 0; set inside that order's grant transaction. */
    firstRealPaymentOrderId: z.number().int().optional(),
  })
  .describe('user');
export type User = z.infer<typeof UserItem>;

/** The user `userId`, or undefined (strongly consistent). */
export const getUser = (db: Db, userId: number): Promise<User | undefined> => getItem(db, userKey(userId), UserItem);

/** The users of `userIds` that exist, in no particular order (BatchGetItem). */
export const getUsers = (db: Db, userIds: number[]): Promise<User[]> => getItems(db, [...new Set(userIds)].map(userKey), UserItem);

const UserRef = z.object({ userId: z.number().int().positive() }).describe('user reference');

/** The phone's constraint item: its user, and that user's publicId (written since issue 15; older items lack it). */
export const PhoneItem = UserRef.extend({ publicId: z.string().optional() }).describe('phone');
export type PhoneItem = z.infer<typeof PhoneItem>;

/** The phone item of `phone` (exactly as sent), or undefined. */
export const phoneItem = (db: Db, phone: string): Promise<PhoneItem | undefined> => getItem(db, phoneKey(phone), PhoneItem);

/** The id of the user of `phone` (exactly as sent), or undefined. */
export async function userIdByPhone(db: Db, phone: string): Promise<number | undefined> {
  return (await phoneItem(db, phone))?.userId;
}

/** The id of the user with `publicId`, or undefined. */
export async function userIdByPublicId(db: Db, publicId: string): Promise<number | undefined> {
  return (await getItem(db, publicIdKey(publicId), UserRef))?.userId;
}
