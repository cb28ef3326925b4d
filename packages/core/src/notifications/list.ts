/**
 * Listing notifications (issue 3 §8; spec "Notification": list responses keyed `items`; DESIGN §3 lists with
 * `nextCursor`): newest first with an opaque cursor, and the unread count.
 */
import type { Deps } from '../deps';
import type { NotificationKind } from './kinds';
import { countUnread, notificationPage, type StoredNotification } from './notification.entity';
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

/**
 * The learner's notifications, newest first: `{ items, nextCursor?, unreadCount }`, `limit` (1-50, default 20)
 * per page; first creates a due `heart_refilled` notification (refill.ts). The cursor is opaque and bound to
 * the learner's partition (db/cursor.ts). Errors: `validation_error` (field `cursor`) for a cursor this API did
 * not return.
 */
export async function listNotifications(
  deps: Deps,
  user: ReadFields,
  options: { cursor?: string; limit?: number } = {},
): Promise<{ items: Notification[]; nextCursor?: string; unreadCount: number }> {
  await materializeHeartRefill(deps, user);
  const readUpTo = user.notificationsReadUpTo ?? 0;
  const [page, unreadCount] = await Promise.all([
    notificationPage(deps.db, user.id, options.limit ?? 20, options.cursor),
    countUnread(deps.db, user.id, readUpTo),
  ]);
  return {
    items: page.items.map((n) => present(n, readUpTo)),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    unreadCount,
  };
}
