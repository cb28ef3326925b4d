/**
 * Staff messages to learners (DESIGN §9 notifications: send to one user or to all; list of sent). To one
 * learner: a `staff_message` notification in their partition. To all: one broadcast item every learner's list
 * merges in (broadcast.entity.ts), never one write per learner. Both carry the staff's gsi1 `SENTNOTIFS`, so
 * the list of sent messages is one Query. Title 1-100 characters, body 1-2000 (trimmed); the learner sees
 * `title` and `data.body`, never who sent it.
 */
import { getUser } from '../auth';
import { retryOptimistic } from '../db/conditions';
import type { Page } from '../db/items';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { historyItems } from '../history';
import { auditStaffAction } from '../log';
import { broadcastItem } from './broadcast.entity';
import {
  newNotification,
  newNotificationId,
  type StoredNotification,
  sentIndex,
  sentPage,
  storedNotificationItem,
} from './notification.entity';

/** A sent message as the staff see it. */
export const sentView = (n: StoredNotification) => ({
  id: n.id,
  audience: n.audience ?? 'user',
  userId: n.userId ?? null,
  title: n.title,
  body: typeof n.data.body === 'string' ? n.data.body : '',
  sentAt: new Date(n.createdAt).toISOString(),
  staff: n.staff ?? null,
});
export type SentNotificationView = ReturnType<typeof sentView>;

function blank(field: 'title' | 'body'): never {
  throw commonErrors.validation(`${field} must not be blank`, { [field]: ['must not be blank'] });
}

/**
 * Sends `title` / `body` to learner `to.userId` or to everyone (`to.all`) on behalf of staff member `actor`.
 * Errors: `validation_error` (blank title or body; `userId` naming no learner).
 */
export async function sendStaffNotification(
  deps: Deps,
  to: { userId: number } | { all: true },
  message: { title: string; body: string },
  actor: string,
): Promise<SentNotificationView> {
  const title = message.title.trim() || blank('title');
  const body = message.body.trim() || blank('body');
  if ('userId' in to && !(await getUser(deps.db, to.userId))) {
    throw commonErrors.validation('No learner has this id', { userId: ['no such learner'] });
  }
  // An id another worker took in the same millisecond fails the write's condition: try again with a new one.
  const sent = await retryOptimistic(
    async () => {
      const now = deps.clock.now();
      const base = newNotification(newNotificationId(now), 'staff_message', { title, body }, now);
      const item: StoredNotification =
        'userId' in to ? { ...base, audience: 'user', userId: to.userId, staff: actor } : { ...base, audience: 'all', staff: actor };
      await transact(deps.db, [
        'userId' in to ? storedNotificationItem(deps.db, to.userId, item, sentIndex(item.id)) : broadcastItem(deps.db, item),
        ...historyItems(deps.db, {
          at: item.createdAt,
          staff: actor,
          action: 'add',
          model: 'notification',
          objectId: item.id,
          objectRepr: title,
          changes: { audience: [null, item.audience], userId: [null, item.userId ?? null], title: [null, title], body: [null, body] },
        }),
      ]);
      return item;
    },
    () => undefined,
  );
  auditStaffAction(actor, 'send', 'notification', sent.id);
  return sentView(sent);
}

/** The staff messages sent, newest first, a page from `cursor`. Errors: `validation_error` (cursor). */
export async function listSentNotifications(
  deps: Pick<Deps, 'db'>,
  query: { limit: number; cursor?: string },
): Promise<Page<SentNotificationView>> {
  const page = await sentPage(deps.db, query.limit, query.cursor);
  return { ...page, items: page.items.map(sentView) };
}
