/**
 * A learner's notification: pk `USER#<userId>`, sk `NOTIF#<notificationId 12 digits>`; no GSI; TTL
 * `expiresAt` {@link NOTIFICATION_KEEP_DAYS} days after creation. Ids come from the `notification` counter and
 * grow with time, so a reverse Query of the prefix lists the newest first; another learner's id is simply not
 * in the caller's partition (404). Read state: `readAt` (marked one by one) or an id at most the user's
 * `notificationsReadUpTo` (read-all, one write on the user item). Personal data: deleted with the account.
 */
import { z } from 'zod';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { nextId } from '../db/counters';
import { countItems, type Page, parseItem, queryPage, updateItem } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { NOTIFICATION_KINDS, type NotificationKind, titleOf } from './kinds';

export const NOTIFICATION_PREFIX = 'NOTIF#';
/** Notifications are kept this many days (TTL). */
export const NOTIFICATION_KEEP_DAYS = 90;

export const notificationKey = (userId: number, notificationId: number): Key => ({
  pk: userPartition(userId),
  sk: `${NOTIFICATION_PREFIX}${pad(notificationId, 12)}`,
});

export const NotificationItem = z
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
  })
  .describe('notification');
export type StoredNotification = z.infer<typeof NotificationItem>;

/** A new notification id (one counter update). */
export const newNotificationId = (db: Db): Promise<number> => nextId(db, 'notification');

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
  const item: StoredNotification = {
    id,
    kind,
    title: titleOf(kind, data),
    data,
    createdAt: atMs,
    expiresAt: epochSeconds(atMs) + NOTIFICATION_KEEP_DAYS * 86_400,
  };
  return put(db, { ...notificationKey(userId, id), ...item }, { condition: 'attribute_not_exists(pk)' });
}

/**
 * One page of the learner's notifications, newest first, `limit` per page, from `cursor` (a `nextCursor` of
 * the previous page). Errors: `validation_error` (field `cursor`) for a cursor this API did not hand out.
 */
export const notificationPage = (db: Db, userId: number, limit: number, cursor?: string): Promise<Page<StoredNotification>> =>
  queryPage(
    db,
    { partition: userPartition(userId), sortKey: { beginsWith: NOTIFICATION_PREFIX }, descending: true, limit },
    NotificationItem,
    cursor,
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
