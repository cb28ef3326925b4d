/**
 * Listing notifications (issue 3 §8; spec "Notification": list responses keyed `items`; DESIGN §3 lists with
 * `nextCursor`): newest first with an opaque cursor, and the unread count. A page merges the learner's own
 * notifications with the staff broadcasts sent since they joined (broadcast.entity.ts); a broadcast the learner
 * marked read is represented by its read copy in their partition.
 */
import type { User } from '../auth';
import { decodeCursor, encodeCursor } from '../db/cursor';
import { userPartition } from '../db/keys';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { broadcastPage, broadcastsAfter } from './broadcast.entity';
import type { NotificationKind } from './kinds';
import {
  countUnread,
  NOTIFICATION_PREFIX,
  notificationKey,
  notificationPage,
  notificationsAmong,
  type StoredNotification,
} from './notification.entity';
import { materializeHeartRefill, type ReadFields } from './refill';

/** A notification as the API answers it. */
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

/** `item` as the API answers it; read when marked one by one or its id is at most `readUpTo` (read-all). */
export const present = (item: StoredNotification, readUpTo: number): Notification => ({
  id: item.id,
  kind: item.kind,
  title: item.title,
  data: item.data,
  createdAt: new Date(item.createdAt).toISOString(),
  read: item.readAt !== undefined || item.id <= readUpTo,
});

/** The fields the lists read of the learner. */
export type ListFields = ReadFields & Pick<User, 'createdAt'>;

/** The broadcasts `user` sees: those sent since they joined. */
const visibleTo = (user: ListFields) => (b: StoredNotification) => b.createdAt >= Date.parse(user.createdAt);

/**
 * Up to `limit` of the learner's notifications with ids below `beforeId`, broadcasts merged in, and whether more
 * follow. Broadcasts past the last one read are only trusted down to it (older ones may be unread yet).
 */
async function mergedPage(deps: Deps, user: ListFields, limit: number, beforeId?: number) {
  const [own, broadcasts] = await Promise.all([
    notificationPage(deps.db, user.id, limit, beforeId),
    broadcastPage(deps.db, limit, beforeId),
  ]);
  const visible = broadcasts.items.filter(visibleTo(user));
  // Older broadcasts than the page read exist only when it was full of visible ones (ids and times both grow).
  const moreBroadcasts = broadcasts.nextCursor !== undefined && visible.length === broadcasts.items.length;
  const floor = moreBroadcasts ? Math.min(...visible.map((b) => b.id)) : 0;
  const byId = new Map<number, StoredNotification>();
  for (const b of visible) byId.set(b.id, b);
  for (const n of own.items) byId.set(n.id, n); // a read copy stands for its broadcast
  const merged = [...byId.values()].filter((n) => n.id >= floor).sort((a, b) => b.id - a.id);
  const items = merged.slice(0, limit);
  const more = merged.length > limit || own.nextCursor !== undefined || moreBroadcasts;
  return { items, more };
}

/**
 * Unread notifications: the learner's own (COUNT Query) and the visible broadcasts above `readUpTo` without a
 * read copy.
 */
async function unreadCount(deps: Deps, user: ListFields, readUpTo: number): Promise<number> {
  const [own, broadcasts] = await Promise.all([countUnread(deps.db, user.id, readUpTo), broadcastsAfter(deps.db, readUpTo)]);
  const visible = broadcasts.filter(visibleTo(user));
  if (visible.length === 0) return own;
  const copies = await notificationsAmong(
    deps.db,
    user.id,
    visible.map((b) => b.id),
  );
  return own + visible.length - copies.length;
}

/** The id a cursor of this list stands before. Errors: `validation_error` (field `cursor`) for one this API did not return. */
function beforeIdOf(user: ListFields, cursor: string): number {
  const key = decodeCursor(cursor, userPartition(user.id));
  const id = Number(key.sk?.slice(NOTIFICATION_PREFIX.length));
  if (!key.sk?.startsWith(NOTIFICATION_PREFIX) || !Number.isInteger(id)) {
    throw commonErrors.validation('cursor is not one this API returned', { cursor: ['invalid cursor'] });
  }
  return id;
}

/**
 * The learner's notifications, newest first: `{ items, nextCursor?, unreadCount }`, `limit` (1-50, default 20)
 * per page; first creates a due `heart_refilled` notification (refill.ts). The cursor is opaque and bound to
 * the learner's partition (db/cursor.ts). Errors: `validation_error` (field `cursor`) for a cursor this API did
 * not return.
 */
export async function listNotifications(
  deps: Deps,
  user: ListFields,
  options: { cursor?: string; limit?: number } = {},
): Promise<{ items: Notification[]; nextCursor?: string; unreadCount: number }> {
  const beforeId = options.cursor === undefined ? undefined : beforeIdOf(user, options.cursor);
  await materializeHeartRefill(deps, user);
  const readUpTo = user.notificationsReadUpTo ?? 0;
  const [page, unread] = await Promise.all([mergedPage(deps, user, options.limit ?? 20, beforeId), unreadCount(deps, user, readUpTo)]);
  const last = page.items.at(-1);
  return {
    items: page.items.map((n) => present(n, readUpTo)),
    ...(page.more && last ? { nextCursor: encodeCursor({ ...notificationKey(user.id, last.id) }, userPartition(user.id)) } : {}),
    unreadCount: unread,
  };
}
