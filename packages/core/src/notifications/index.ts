/**
 * Notifications (issue 3 §8; spec "Notification": list responses keyed `items`; DESIGN §3 lists with
 * `nextCursor`). One item per notification in the learner's partition (`USER#<id> / NOTIF#<id>`), so another
 * learner's id is simply not found (404). Ids come from the `notification` counter and grow with time, so
 * the newest come first in a reverse Query. Kept {@link NOTIFICATION_KEEP_DAYS} days (TTL).
 *
 * Kinds, when they are created, and their `data`:
 * | kind               | created                                                          | data                          |
 * |--------------------|------------------------------------------------------------------|-------------------------------|
 * | `island_completed` | in the transaction that completes a node (island) the first time  | `{ nodeId, title, stars, xp }` |
 * | `streak_milestone` | in the write that extends the streak to 3, 7, 14, 30, 60, 100, 200 or 365 days | `{ days }`    |
 * | `heart_refilled`   | the learner ran out of hearts (enforced) and at least one came back; created lazily on the next read of the list, dated when the heart came back | `{ hearts }` |
 *
 * Read state: a notification is read when it has `readAt` (marked one by one) or its id is at most the
 * user's `notificationsReadUpTo` (set by read-all in one write, whatever the number of notifications).
 */
import { paginateQuery, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../auth';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { nextId } from '../db/counters';
import { keys } from '../db/keys';
import { put, type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors, DomainError } from '../errors';
import { heartsAt } from '../hearts';

export const NOTIFICATION_KEEP_DAYS = 90;
/** Streak lengths (days) that earn a `streak_milestone` notification. */
export const STREAK_MILESTONES = [3, 7, 14, 30, 60, 100, 200, 365] as const;

export type NotificationKind = 'island_completed' | 'streak_milestone' | 'heart_refilled';

export interface Notification {
  id: number;
  kind: NotificationKind;
  /** Short text for the app to show (Persian); `kind` and `data` let it render its own. */
  title: string;
  data: Record<string, unknown>;
  /** ISO time. */
  createdAt: string;
  read: boolean;
}

interface StoredNotification {
  id: number;
  kind: NotificationKind;
  title: string;
  data: Record<string, unknown>;
  /** Epoch ms. */
  createdAt: number;
  readAt?: number;
}

type ReadFields = Pick<User, 'id' | 'notificationsReadUpTo' | 'heartsEmptyAt' | 'hearts' | 'heartsUpdatedAt'>;

const titles: Record<NotificationKind, (data: Record<string, unknown>) => string> = {
  island_completed: (d) => `جزیره «${String(d.title)}» را تمام کردی!`,
  streak_milestone: (d) => `${String(d.days)} روز پشت سر هم تمرین کردی!`,
  heart_refilled: () => 'یک قلب برگشت؛ می‌توانی دوباره تمرین کنی.',
};

/** A new notification id (one counter update). */
export const newNotificationId = (db: Db): Promise<number> => nextId(db, 'notification');

/**
 * A transaction item that creates notification `id` of `kind` for `userId`, dated `atMs` (epoch ms). The
 * caller's transaction decides whether the event happened (e.g. a node's first completion), so the
 * notification exists exactly when the event does.
 */
export function notificationItem(
  db: Db,
  userId: number,
  id: number,
  kind: NotificationKind,
  data: Record<string, unknown>,
  atMs: number,
): TxItem {
  const item: StoredNotification = { id, kind, title: titles[kind](data), data, createdAt: atMs };
  return put(
    db,
    { ...keys.notification(userId, id), ...item, expiresAt: epochSeconds(atMs) + NOTIFICATION_KEEP_DAYS * 86_400 },
    { condition: 'attribute_not_exists(pk)' },
  );
}

/** Whether a streak of `days` earns a milestone notification. */
export const isStreakMilestone = (days: number): boolean => (STREAK_MILESTONES as readonly number[]).includes(days);

const present = (item: StoredNotification, readUpTo: number): Notification => ({
  id: item.id,
  kind: item.kind,
  title: item.title,
  data: item.data,
  createdAt: new Date(item.createdAt).toISOString(),
  read: item.readAt !== undefined || item.id <= readUpTo,
});

/**
 * Creates the `heart_refilled` notification when the learner ran out of hearts (`heartsEmptyAt`, set by the
 * answer that took the last heart) and at least one has come back by now. One transaction that also clears
 * the mark, conditional on it, so two reads at once create one notification.
 */
async function materializeHeartRefill(deps: Deps, user: ReadFields): Promise<void> {
  if (user.heartsEmptyAt === undefined) return;
  const now = deps.clock.now();
  const hearts = heartsAt(user, now, deps.settings);
  if (hearts.enforced && hearts.hearts === 0) return;
  const refillMs = deps.settings.hearts.refillSeconds * 1000;
  const refilledAt = user.hearts === 0 ? user.heartsUpdatedAt + refillMs : user.heartsEmptyAt + refillMs;
  const id = await newNotificationId(deps.db);
  try {
    await transact(deps.db, [
      notificationItem(deps.db, user.id, id, 'heart_refilled', { hearts: hearts.hearts }, Math.min(now, refilledAt)),
      update(deps.db, keys.user(user.id), 'REMOVE heartsEmptyAt', {
        condition: 'heartsEmptyAt = :at',
        values: { ':at': user.heartsEmptyAt },
      }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

const encodeCursor = (id: number) => Buffer.from(JSON.stringify({ id })).toString('base64url');
function decodeCursor(cursor: string): number {
  try {
    const id = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown }).id;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  } catch {
    // fall through
  }
  throw new DomainError('validation_error', 'cursor is not one this API returned', { fields: { cursor: ['invalid cursor'] } });
}

/**
 * The learner's notifications, newest first: `{ items, nextCursor?, unreadCount }`, `limit` (1-50) per page.
 * Errors: `validation_error` for a cursor this API did not return.
 */
export async function listNotifications(
  deps: Deps,
  user: ReadFields,
  options: { cursor?: string; limit?: number } = {},
): Promise<{ items: Notification[]; nextCursor?: string; unreadCount: number }> {
  await materializeHeartRefill(deps, user);
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const limit = options.limit ?? 20;
  const readUpTo = user.notificationsReadUpTo ?? 0;
  const [page, unreadCount] = await Promise.all([
    deps.db.doc.send(
      new QueryCommand({
        TableName: deps.db.tableName,
        KeyConditionExpression:
          before === undefined ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk BETWEEN :prefix AND :before',
        ExpressionAttributeValues: {
          ':pk': keys.userPartition(user.id),
          ':prefix': keys.notificationPrefix,
          ...(before === undefined ? {} : { ':before': keys.notification(user.id, before - 1).sk }),
        },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    ),
    countUnread(deps, user.id, readUpTo),
  ]);
  const items = ((page.Items ?? []) as StoredNotification[]).map((n) => present(n, readUpTo));
  const last = items.at(-1);
  return {
    items,
    ...(page.LastEvaluatedKey && last ? { nextCursor: encodeCursor(last.id) } : {}),
    unreadCount,
  };
}

/** Unread notifications: those after `readUpTo` without `readAt` (bounded by the 90-day TTL). */
async function countUnread(deps: Deps, userId: number, readUpTo: number): Promise<number> {
  let count = 0;
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :end',
      FilterExpression: 'attribute_not_exists(readAt)',
      ExpressionAttributeValues: {
        ':pk': keys.userPartition(userId),
        ':after': keys.notification(userId, readUpTo + 1).sk,
        ':end': `${keys.notificationPrefix}~`,
      },
      Select: 'COUNT',
    },
  );
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/** Marks notification `id` of the learner read and returns it. Errors: `not_found` (none, or another learner's). */
export async function markRead(deps: Deps, user: ReadFields, id: number): Promise<Notification> {
  try {
    const result = await deps.db.doc.send(
      new UpdateCommand({
        TableName: deps.db.tableName,
        Key: keys.notification(user.id, id),
        UpdateExpression: 'SET readAt = if_not_exists(readAt, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': deps.clock.now() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return present(result.Attributes as StoredNotification, user.notificationsReadUpTo ?? 0);
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.notFound('Notification');
    throw error;
  }
}

/** Marks every notification of the learner read in one write: `notificationsReadUpTo` = the newest id. */
export async function markAllRead(deps: Deps, user: ReadFields): Promise<{ unreadCount: 0 }> {
  const newest = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(user.id), ':prefix': keys.notificationPrefix },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const id = (newest.Items?.[0] as StoredNotification | undefined)?.id;
  if (id !== undefined) {
    try {
      await deps.db.doc.send(
        new UpdateCommand({
          TableName: deps.db.tableName,
          Key: keys.user(user.id),
          UpdateExpression: 'SET notificationsReadUpTo = :id',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(notificationsReadUpTo) OR notificationsReadUpTo < :id)',
          ExpressionAttributeValues: { ':id': id },
        }),
      );
    } catch (error) {
      // A concurrent read-all already went as far or further.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return { unreadCount: 0 };
}
