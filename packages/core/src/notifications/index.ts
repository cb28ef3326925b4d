/**
 * Notifications (issue 3 §8; spec "Notification"): created inside the transactions of the events they tell
 * (an island completed, a streak milestone) or lazily (a heart came back); listed newest first with a cursor;
 * marked read one by one or all at once. Kinds and their data: kinds.ts; the stored item: notification.entity.ts.
 */
import { NOTIFICATION_PREFIX } from './notification.entity';

export { isStreakMilestone, NOTIFICATION_KINDS, type NotificationKind } from './kinds';
export { listNotifications, type Notification } from './list';
export { newNotificationId, newNotificationIds, notificationItem } from './notification.entity';
export { markAllRead, markRead } from './read';
export { listSentNotifications, type SentNotificationView, sendStaffNotification } from './staff';

/** Sort-key prefixes of this domain's items in the learner's partition `USER#<id>`: personal data, deleted with the account. */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [NOTIFICATION_PREFIX];
