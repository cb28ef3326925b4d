/**
 * The routes of endpoint group `admintools` (`packages/functions/src/groups/admintools.ts`): the staff's everyday
 * tools (issue 25; DESIGN §9 "Staff history, export, bulk actions and charts"): the history of every change, the
 * 30-day charts, bulk actions, a learner's related records and one's own password. Buffered, behind API Gateway.
 */
import type { RouteSpec } from './types';

export const admintoolsRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/admin/history',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_history',
    summary:
      'The staff history, newest first, by model, record, staff member, action and dates (view_logentry; one record: its view permission).',
  },
  {
    method: 'GET',
    path: '/api/admin/stats',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_stats',
    summary: 'The day counters of the last Tehran days for the dashboard charts (signed in).',
  },
  {
    method: 'POST',
    path: '/api/admin/discount-codes/bulk',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_discount_codes_bulk',
    summary: 'Activate or deactivate the selected discount codes, each on its own, with a result per code (superuser).',
  },
  {
    method: 'POST',
    path: '/api/admin/offers/bulk',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_offers_bulk',
    summary: 'Advertise (activate) or withdraw (deactivate) the selected offers, each on its own, with a result per code (change_offer).',
  },
  {
    method: 'POST',
    path: '/api/admin/tickets/bulk',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_tickets_bulk',
    summary: 'Close the selected tickets, each on its own, with a result per ticket (change_ticket).',
  },
  {
    method: 'POST',
    path: '/api/admin/users/bulk',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_users_bulk',
    summary: 'End the sign-ins of the selected learners, each on its own, with a result per learner (superuser: delete_session).',
  },
  {
    method: 'POST',
    path: '/api/admin/staff/bulk',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_staff_bulk',
    summary: 'End every session of the selected staff members, each on its own, with a result per member (superuser: change_staff).',
  },
  {
    method: 'GET',
    path: '/api/admin/users/{id}/tutor-usage',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_user_tutor_usage',
    summary: 'A learner’s tutor questions and tokens per Tehran day, as long as the day is kept (view_tutorusage).',
  },
];
