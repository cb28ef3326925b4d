/** Marking notifications read (issue 3 §8): one by one (`readAt`), or all at once (the user's `notificationsReadUpTo`). */
import { userKey } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { updateItem } from '../db/items';
import type { Deps } from '../deps';
import { notificationErrors } from './errors';
import { type Notification, present } from './list';
import { markNotificationRead, newestNotification } from './notification.entity';
import type { ReadFields } from './refill';

/** Marks notification `id` of the learner read and returns it. Errors: `not_found` (none, or another learner's). */
export async function markRead(deps: Deps, user: ReadFields, id: number): Promise<Notification> {
  try {
    return present(await markNotificationRead(deps.db, user.id, id, deps.clock.now()), user.notificationsReadUpTo ?? 0);
  } catch (error) {
    if (isConditionFailure(error)) throw notificationErrors.notFound();
    throw error;
  }
}

/**
 * Marks every notification of the learner read in one write, whatever their number: the user's
 * `notificationsReadUpTo` becomes the newest id (never lowered: a concurrent read-all that went further wins).
 */
export async function markAllRead(deps: Deps, user: ReadFields): Promise<{ unreadCount: 0 }> {
  const newest = await newestNotification(deps.db, user.id);
  if (newest !== undefined) {
    try {
      await updateItem(deps.db, userKey(user.id), 'SET notificationsReadUpTo = :id', {
        condition: 'attribute_exists(pk) AND (attribute_not_exists(notificationsReadUpTo) OR notificationsReadUpTo < :id)',
        values: { ':id': newest.id },
      });
    } catch (error) {
      // A concurrent read-all already went as far or further.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return { unreadCount: 0 };
}
