/**
 * A learner's notification: pk `USER#<userId>`, sk `NOTIF#<notificationId, 12 digits or more>`; TTL
 * `expiresAt` {@link NOTIFICATION_KEEP_DAYS} days after creation. Ids grow with time ({@link newNotificationIds}),
 * so a reverse Query of the prefix lists the newest first; another learner's id is simply not in the caller's
 * partition (404). Read state: `readAt` (marked one by one) or an id at most the user's
 * `notificationsReadUpTo` (read-all, one write on the user item). Personal data: deleted with the account.
 *
 * Broadcasts (staff messages to every learner, broadcast.entity.ts) take their ids the same way, so they interleave
 * with a learner's own by id. Staff messages, to one learner or to all, also carry gsi1
 * `SENTNOTIFS` / `<id 12>`: the staff's list of what was sent.
 */
import * as z from 'zod';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { countItems, getItems, type Page, parseItem, putItem, queryPage, updateItem } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { NOTIFICATION_KINDS, type NotificationKind, titleOf } from './kinds';

export const NOTIFICATION_PREFIX = 'NOTIF#';
/** Notifications are kept this many days (TTL). */
export const NOTIFICATION_KEEP_DAYS = 90;

export const notificationKey = (userId: number, notificationId: number): Key => ({
  pk: userPartition(userId),
  sk: `${NOTIFICATION_PREFIX}${pad(notificationId, 12)}`,
});

export const NotificationItem = lazySchema(() =>
  z
    .object({
      id: z.number().int().positive(),
      kind: z.enum(NOTIFICATION_KINDS),
      /** Short Persian text (kinds.ts `titleOf`), fixed at creation. */
      title: z.string(),
      data: z.record(z.string(), z.unknown()),
      /** Epoch ms. */
      createdAt: z.number().int(),
      /** Epoch ms it was marked read one by one. */
      readAt: z.number().int().optional(),
      /** TTL, epoch seconds. */
      expiresAt: z.number().int(),
      /** Staff messages only: to one learner (`user`, with `userId`) or to all, and who sent it (never shown to learners). */
      audience: z.enum(['user', 'all']).optional(),
      userId: z.number().int().optional(),
      staff: z.string().optional(),
    })
    .describe('notification'),
);
export type StoredNotification = z.infer<typeof NotificationItem>;

/** The last notification id this worker handed out. */
let lastId = 0;

/**
 * `count` new notification ids at `nowMs` (epoch ms), increasing (an island and a streak milestone at once): each
 * is the time in ms, or one more than the last id this worker handed out when that is later. No request: ids used to
 * come from one `notification` counter item, which every island completion of a nationwide quiz would update at once
 * (issue 30, docs/capacity.md); ids of that counter are far below any time in ms, so the new ones sort after them.
 * Unique per learner: the item's condition (`attribute_not_exists`) refuses an id taken in the same ms by another
 * worker, and the writer retries with a new one.
 */
export function newNotificationIds(nowMs: number, count: number): number[] {
  return Array.from({ length: count }, () => {
    lastId = Math.max(lastId + 1, nowMs);
    return lastId;
  });
}

/** One new notification id at `nowMs` (see {@link newNotificationIds}). */
export const newNotificationId = (nowMs: number): number => newNotificationIds(nowMs, 1)[0] as number;

/**
 * Transaction item: creates notification `id` of `kind` for `userId`, dated `atMs` (epoch ms). The caller's
 * transaction decides whether the event happened (e.g. a node's first completion), so the notification exists
 * exactly when the event does. Fails when the id was used already.
 */
export function notificationItem(
  db: Db,
  userId: number,
  id: number,
  kind: NotificationKind,
  data: Record<string, unknown>,
  atMs: number,
): TxItem {
  return put(db, { ...notificationKey(userId, id), ...newNotification(id, kind, data, atMs) }, { condition: 'attribute_not_exists(pk)' });
}

/** A new notification's stored fields (its title from its kind and data, kept {@link NOTIFICATION_KEEP_DAYS} days). */
export const newNotification = (id: number, kind: NotificationKind, data: Record<string, unknown>, atMs: number): StoredNotification => ({
  id,
  kind,
  title: titleOf(kind, data),
  data,
  createdAt: atMs,
  expiresAt: epochSeconds(atMs) + NOTIFICATION_KEEP_DAYS * 86_400,
});

const SENT_INDEX = 'SENTNOTIFS';
/** gsi1 of a staff message: the staff's list of sent messages. */
export const sentIndex = (id: number) => ({ gsi1pk: SENT_INDEX, gsi1sk: pad(id, 12) });

/** Puts `item` in `userId`'s partition (a staff message with its gsi1, or a read copy of a broadcast without). Errors: ConditionalCheckFailedException when the id is used. */
export const putNotification = (db: Db, userId: number, item: StoredNotification, index: Record<string, string> = {}): Promise<void> =>
  putItem(db, { ...notificationKey(userId, item.id), ...index, ...item }, { condition: 'attribute_not_exists(pk)' });

/** {@link putNotification} as a transaction item. */
export const storedNotificationItem = (db: Db, userId: number, item: StoredNotification, index: Record<string, string> = {}): TxItem =>
  put(db, { ...notificationKey(userId, item.id), ...index, ...item }, { condition: 'attribute_not_exists(pk)' });

/** One page of staff messages sent, newest first (gsi1). Errors: `validation_error` (cursor). */
export const sentPage = (db: Db, limit: number, cursor?: string): Promise<Page<StoredNotification>> =>
  queryPage(db, { index: 'gsi1', partition: SENT_INDEX, descending: true, limit }, NotificationItem, cursor);

/** The learner's notifications among `ids` (BatchGetItem). */
export const notificationsAmong = (db: Db, userId: number, ids: number[]): Promise<StoredNotification[]> =>
  getItems(
    db,
    ids.map((id) => notificationKey(userId, id)),
    NotificationItem,
  );

/**
 * One page of the learner's notifications, newest first, `limit` per page, with ids below `beforeId` when given.
 */
export const notificationPage = (db: Db, userId: number, limit: number, beforeId?: number): Promise<Page<StoredNotification>> =>
  queryPage(
    db,
    {
      partition: userPartition(userId),
      sortKey:
        beforeId === undefined
          ? { beginsWith: NOTIFICATION_PREFIX }
          : { between: [NOTIFICATION_PREFIX, notificationKey(userId, beforeId - 1).sk] },
      descending: true,
      limit,
    },
    NotificationItem,
  );

/** The learner's newest notification, or undefined. */
export async function newestNotification(db: Db, userId: number): Promise<StoredNotification | undefined> {
  return (await notificationPage(db, userId, 1)).items[0];
}

/** Notifications with an id above `readUpTo` and no `readAt` (COUNT Query; bounded by the 90-day TTL). */
export const countUnread = (db: Db, userId: number, readUpTo: number): Promise<number> =>
  countItems(db, {
    partition: userPartition(userId),
    sortKey: { between: [notificationKey(userId, readUpTo + 1).sk, `${NOTIFICATION_PREFIX}~`] },
    filter: { condition: 'attribute_not_exists(readAt)' },
  });

/**
 * Sets `readAt` of notification `id` to `nowMs` unless it is set, and returns the notification.
 * Errors: ConditionalCheckFailedException when the learner has no notification `id`.
 */
export async function markNotificationRead(db: Db, userId: number, id: number, nowMs: number): Promise<StoredNotification> {
  const after = await updateItem(
    db,
    notificationKey(userId, id),
    'SET readAt = if_not_exists(readAt, :now)',
    { condition: 'attribute_exists(pk)', values: { ':now': nowMs } },
    'ALL_NEW',
  );
  return parseItem(NotificationItem, after);
}
