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
 * The user item is the one aggregate several domains write, each its own fields: hearts and counters (progress/
 * answer), XP, stars and streak (progress/ grant), board positions (leaderboard/), profile fields (profile/), the
 * read marker and refill mark (notifications/), the subscription and referral fields (subscriptions/), the session
 * (auth/). Every such write is built here, from a {@link UserChange} typed by {@link UserItem} and a
 * {@link UserCondition} ({@link updateUser} in a transaction, {@link writeUser} alone): a new field is declared once,
 * in the schema, and no other file spells an update expression of this item. Its schema lives here, at the bottom of
 * the domain graph, so every domain can read and write it without an import loop.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, getItems, parseItem, updateItem } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { type Condition, type TxItem, update, type Values } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const userKey = (userId: number): Key => ({ pk: userPartition(userId), sk: 'PROFILE' });
export const phoneKey = (phone: string): Key => ({ pk: `PHONE#${phone}`, sk: 'PHONE' });
export const publicIdKey = (publicId: string): Key => ({ pk: `PUBLICID#${publicId}`, sk: 'PUBLICID' });

const count = z.number().int().nonnegative();
const epochMs = z.number().int();

/** The learner's subscription as stored on the user item (written by subscriptions/ when an order is paid). */
export const StoredSubscription = lazySchema(() =>
  z.object({
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
  }),
);
export type StoredSubscription = z.infer<typeof StoredSubscription>;

export const UserItem = lazySchema(() =>
  z
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
    .describe('user'),
);
export type User = z.infer<typeof UserItem>;

/** The user item's fields a write may change: every field of {@link UserItem} but `id`. */
export type UserFields = Omit<User, 'id'>;
type Field = keyof UserFields;
type NumberField = { [F in Field]-?: NonNullable<UserFields[F]> extends number ? F : never }[Field];
type OptionalField = { [F in Field]-?: undefined extends UserFields[F] ? F : never }[Field];

/**
 * A change of the user item, typed by {@link UserItem}: fields set, numbers added (DynamoDB `ADD`: atomic, from 0
 * when the field is absent), optional fields removed.
 */
export interface UserChange {
  set?: { [F in Field]?: Exclude<UserFields[F], undefined> };
  add?: { [F in NumberField]?: number };
  remove?: readonly OptionalField[];
}

/** A condition on the user item: an expression over its attributes (`#name` for a field of {@link UserItem}) and its values. */
export interface UserCondition {
  expression: string;
  values?: Values;
}

/** Conditions on the user item, typed by {@link UserItem}. */
export const userCondition = {
  /** The user exists. */
  exists: (): UserCondition => ({ expression: 'attribute_exists(pk)' }),
  /** Each field given holds that value (`:c_<field>`). */
  is: (fields: { [F in Field]?: UserFields[F] }): UserCondition => ({
    expression: Object.keys(fields)
      .map((f) => `#${f} = :c_${f}`)
      .join(' AND '),
    values: Object.fromEntries(Object.entries(fields).map(([f, v]) => [`:c_${f}`, v])),
  }),
  /** The field is not stored. */
  lacks: (field: OptionalField): UserCondition => ({ expression: `attribute_not_exists(#${field})` }),
  /** The field is not stored, or holds another value than `value` (`:not_<field>`). */
  isNot: <F extends OptionalField>(field: F, value: Exclude<UserFields[F], undefined>): UserCondition => ({
    expression: `attribute_not_exists(#${field}) OR #${field} <> :not_${field}`,
    values: { [`:not_${field}`]: value },
  }),
  /** The number field is not stored, or is below `value`. */
  below: (field: NumberField, value: number): UserCondition => ({
    expression: `attribute_not_exists(#${field}) OR #${field} < :below_${field}`,
    values: { [`:below_${field}`]: value },
  }),
  /**
   * The subscription is as read: absent, or this expiry and marketplace period end (every change of the subscription
   * changes one of them). Every writer of the subscription pins it so (grant, refund, marketplace ends, backfill).
   */
  subscriptionAsRead: (current: StoredSubscription | undefined): UserCondition => {
    if (!current) return { expression: 'attribute_not_exists(#subscription)' };
    const store =
      current.storeUntil === undefined ? 'attribute_not_exists(#subscription.storeUntil)' : '#subscription.storeUntil = :prevStoreUntil';
    return {
      expression: `#subscription.expiresAt = :prevExpires AND ${store}`,
      values: { ':prevExpires': current.expiresAt, ...(current.storeUntil === undefined ? {} : { ':prevStoreUntil': current.storeUntil }) },
    };
  },
  /** Every condition given holds (each in parentheses: DynamoDB refuses doubled ones, so no condition brings its own). */
  all: (...conditions: (UserCondition | undefined)[]): UserCondition => {
    const given = conditions.filter((c): c is UserCondition => c !== undefined && c.expression !== '');
    return { expression: given.map((c) => `(${c.expression})`).join(' AND '), values: Object.assign({}, ...given.map((c) => c.values)) };
  },
};

/** One change made of several (a grant's XP, its board positions and its streak). Errors: a field changed twice. */
export function mergeUserChanges(...changes: (UserChange | undefined)[]): UserChange {
  const merged = { set: {} as Record<string, unknown>, add: {} as Record<string, number>, remove: [] as string[] };
  for (const change of changes) {
    for (const [kind, fields] of [
      ['set', Object.keys(change?.set ?? {})],
      ['add', Object.keys(change?.add ?? {})],
      ['remove', change?.remove ?? []],
    ] as const) {
      for (const field of fields) {
        if (field in merged.set || field in merged.add || merged.remove.includes(field))
          throw new Error(`user item: ${field} changed twice`);
        if (kind === 'remove') merged.remove.push(field);
        else if (kind === 'add') merged.add[field] = change?.add?.[field as NumberField] as number;
        else merged.set[field] = change?.set?.[field as Field];
      }
    }
  }
  return merged as UserChange;
}

/** `change` and `condition` as the request's expressions: `#<field>` names, `:u_<field>` values. Errors: an empty change. */
function requestOf(change: UserChange, condition: UserCondition): { expression: string; when: Condition } {
  const set = Object.entries(change.set ?? {}).filter(([, v]) => v !== undefined);
  const add = Object.entries(change.add ?? {}).filter(([, v]) => v !== undefined);
  const remove = change.remove ?? [];
  const parts = [
    set.length ? `SET ${set.map(([f]) => `#${f} = :u_${f}`).join(', ')}` : '',
    add.length ? `ADD ${add.map(([f]) => `#${f} :u_${f}`).join(', ')}` : '',
    remove.length ? `REMOVE ${remove.map((f) => `#${f}`).join(', ')}` : '',
  ].filter(Boolean);
  if (!parts.length) throw new Error('user item: an update that changes nothing');
  const expression = parts.join(' ');
  const fields = new Set([...`${expression} ${condition.expression}`.matchAll(/#(\w+)/g)].map((m) => m[1] as string));
  const values = { ...Object.fromEntries([...set, ...add].map(([f, v]) => [`:u_${f}`, v])), ...condition.values };
  return {
    expression,
    when: {
      condition: condition.expression,
      names: Object.fromEntries([...fields].map((f) => [`#${f}`, f])),
      ...(Object.keys(values).length ? { values } : {}),
    },
  };
}

/** The transaction item that writes `change` to user `userId` when `condition` holds (default: the user exists). */
export function updateUser(db: Db, userId: number, change: UserChange, condition = userCondition.exists()): TxItem {
  const { expression, when } = requestOf(change, condition);
  return update(db, userKey(userId), expression, when);
}

/** `change` written alone (one UpdateItem) when `condition` holds; returns the user after it. Errors: ConditionalCheckFailed. */
export async function writeUser(db: Db, userId: number, change: UserChange, condition = userCondition.exists()): Promise<User> {
  const { expression, when } = requestOf(change, condition);
  return parseItem(UserItem, await updateItem(db, userKey(userId), expression, when, 'ALL_NEW'));
}

/**
 * Takes user `userId` out of the staff's index it was in before the directory (gsi2 `USERS`; migration
 * `0007-user-directory`): removes its gsi2 keys, when it has them. Errors: ConditionalCheckFailed (not indexed).
 */
export async function unindexUser(db: Db, userId: number): Promise<void> {
  await updateItem(db, userKey(userId), 'REMOVE gsi2pk, gsi2sk', { condition: 'attribute_exists(gsi2pk)' });
}

/** The user `userId`, or undefined (strongly consistent). */
export const getUser = (db: Db, userId: number): Promise<User | undefined> => getItem(db, userKey(userId), UserItem);

/** The users of `userIds` that exist, in no particular order (BatchGetItem). */
export const getUsers = (db: Db, userIds: number[]): Promise<User[]> => getItems(db, [...new Set(userIds)].map(userKey), UserItem);

const UserRef = lazySchema(() => z.object({ userId: z.number().int().positive() }).describe('user reference'));

/** The phone's constraint item: its user, and that user's publicId (written since issue 15; older items lack it). */
export const PhoneItem = lazySchema(() => UserRef.unwrap().extend({ publicId: z.string().optional() }).describe('phone'));
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
