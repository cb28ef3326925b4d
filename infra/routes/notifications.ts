/** The routes of endpoint group `notifications` (`packages/functions/src/groups/notifications.ts`). */
import type { RouteSpec } from './types';

export const notificationsRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/notifications',
    group: 'notifications',
    auth: 'user',
    throttle: 'notifications_list',
    summary: 'The learner’s notifications, newest first, with a cursor.',
  },
  {
    method: 'POST',
    path: '/api/notifications/{id}/read',
    group: 'notifications',
    auth: 'user',
    throttle: 'notification_read',
    summary: 'Mark one notification read.',
  },
  {
    method: 'POST',
    path: '/api/notifications/read-all',
    group: 'notifications',
    auth: 'user',
    throttle: 'notifications_read_all',
    summary: 'Mark every notification read.',
  },
];
