/** The routes of endpoint group `adminsupport` (`packages/functions/src/groups/adminsupport.ts`). */
import type { RouteSpec } from './types';

export const adminsupportRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/admin/tickets',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_tickets',
    summary: 'Support tickets by latest activity, by status and learner.',
  },
  {
    method: 'GET',
    path: '/api/admin/tickets/{id}',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_ticket_read',
    summary: 'A ticket with its messages.',
  },
  {
    method: 'POST',
    path: '/api/admin/tickets/{id}/messages',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_ticket_reply',
    summary: 'Answer a ticket as staff (status answered).',
  },
  {
    method: 'POST',
    path: '/api/admin/tickets/{id}/close',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_ticket_close',
    summary: 'Close a ticket.',
  },
  {
    method: 'GET',
    path: '/api/admin/notifications',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_notifications',
    summary: 'Staff messages sent, newest first.',
  },
  {
    method: 'POST',
    path: '/api/admin/notifications',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_notification_send',
    summary: 'Send a message to one learner or to all.',
  },
  {
    method: 'GET',
    path: '/api/admin/tutor/feedback',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_tutor_feedback',
    summary: "Learners' ratings of tutor answers, newest first.",
  },
  {
    method: 'GET',
    path: '/api/admin/tutor/usage',
    group: 'adminsupport',
    auth: 'admin',
    throttle: 'admin_tutor_usage',
    summary: 'Tutor usage per Tehran day.',
  },
];
