/**
 * Marking notifications read (issue 3 §8): one by one (`readAt`; a broadcast gets a read copy in the learner's
 * partition, broadcast.entity.ts), or all at once (the user's `notificationsReadUpTo`, which covers broadcasts
 * too: their ids come from the same counter).
 */
import { userCondition, writeUser } from '../auth';
import { isConditionFailure } from '../db/conditions';
import type { Deps } from '../deps';
import { newestBroadcast, readBroadcast } from './broadcast.entity';
import { notificationErrors } from './errors';
import { type ListFields, type Notification, present } from './list';
import { markNotificationRead, newestNotification, putNotification } from './notification.entity';

/** Marks a broadcast the learner sees as read by writing its read copy; undefined when `id` is no such broadcast. */
async function markBroadcastRead(deps: Deps, user: ListFields, id: number): Promise<Notification | undefined> {
  const broadcast = await readBroadcast(deps.db, id);
  if (!broadcast || broadcast.createdAt < Date.parse(user.createdAt)) return undefined;
  const { audience: _a, staff: _s, userId: _u, ...fields } = broadcast;
  const copy = { ...fields, readAt: deps.clock.now() };
  try {
    await putNotification(deps.db, user.id, copy);
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // marked read meanwhile: the next call finds the copy
  }
  return present(copy, user.notificationsReadUpTo ?? 0);
}

/** Marks notification `id` of the learner read and returns it. Errors: `not_found` (none, or another learner's). */
export async function markRead(deps: Deps, user: ListFields, id: number): Promise<Notification> {
  try {
    return present(await markNotificationRead(deps.db, user.id, id, deps.clock.now()), user.notificationsReadUpTo ?? 0);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const broadcast = await markBroadcastRead(deps, user, id);
  if (!broadcast) throw notificationErrors.notFound();
  return broadcast;
}

/**
 * Marks every notification of the learner read in one write, whatever their number: the user's
 * `notificationsReadUpTo` becomes the newest id, broadcasts included (never lowered: a concurrent read-all that
 * went further wins).
 */
export async function markAllRead(deps: Deps, user: ListFields): Promise<{ unreadCount: 0 }> {
  const [own, broadcast] = await Promise.all([newestNotification(deps.db, user.id), newestBroadcast(deps.db)]);
  const newest = Math.max(own?.id ?? 0, broadcast?.id ?? 0);
  if (newest > 0) {
    try {
      await writeUser(
        deps.db,
        user.id,
        { set: { notificationsReadUpTo: newest } },
        userCondition.all(userCondition.exists(), userCondition.below('notificationsReadUpTo', newest)),
      );
    } catch (error) {
      // A concurrent read-all already went as far or further.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return { unreadCount: 0 };
}
