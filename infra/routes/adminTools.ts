/**
 * The staff's everyday tools (issue 25; DESIGN §9 "Staff history, export, bulk actions and charts"): the history of
 * every change, the 30-day charts, bulk actions, CSV exports, a learner's related records and one's own password.
 * Part of the route manifest: `infra/routes.ts` spreads these endpoint groups, throttle scopes and routes into its
 * own (this module imports nothing from it, so the manifest has no import loop; the spread type-checks each entry as
 * a RouteSpec there).
 *
 * - `admintools`: buffered routes behind API Gateway, like every admin group.
 * - `adminexport`: the CSV exports, streamed (`stream: true`): a Lambda function URL in RESPONSE_STREAM mode behind
 *   CloudFront, so an export of any size is written page by page as it is read, past API Gateway's 30 s and Lambda's
 *   6 MB buffered answer (docs/decisions.md "CSV export").
 */

/** The endpoint groups of these routes. */
export const adminToolGroups = ['admintools', 'adminexport'] as const;

/** One throttle scope per route (spec Limits: every throttled route has its own), per staff member. */
export const adminToolThrottles = {
  admin_history: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_stats: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_discount_codes_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_offers_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_tickets_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_users_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_user_tutor_usage: { limit: 1200, windowSeconds: 3600, by: 'user' },
  // A stolen session must not become a password oracle.
  admin_me_password: { limit: 10, windowSeconds: 3600, by: 'user' },
  admin_export_users: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_orders: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_payment_events: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_plans: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_discount_codes: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_offers: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_tickets: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_notifications: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_tutor_feedback: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_tutor_usage: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_staff: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_sessions: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_otp_records: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_export_history: { limit: 60, windowSeconds: 3600, by: 'user' },
} as const;

/** The routes (see infra/routes.ts RouteSpec). */
export const adminToolRoutes = [
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
    method: 'GET',
    path: '/api/admin/users/{id}/tutor-usage',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_user_tutor_usage',
    summary: 'A learner’s tutor questions and tokens per Tehran day, as long as the day is kept (view_tutorusage).',
  },
  {
    method: 'POST',
    path: '/api/admin/me/password',
    group: 'admintools',
    auth: 'admin',
    throttle: 'admin_me_password',
    summary: 'Change one’s own password (the current one required); every other session of the caller ends (signed in).',
  },
  {
    method: 'GET',
    path: '/api/admin/users/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_users',
    stream: true,
    summary: 'CSV of every users row the list’s filters select, streamed page by page (view_user).',
  },
  {
    method: 'GET',
    path: '/api/admin/orders/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_orders',
    stream: true,
    summary: 'CSV of every orders row the list’s filters select, streamed page by page (view_order).',
  },
  {
    method: 'GET',
    path: '/api/admin/payment-events/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_payment_events',
    stream: true,
    summary: 'CSV of every payment-events row the list’s filters select, streamed page by page (view_paymentevent).',
  },
  {
    method: 'GET',
    path: '/api/admin/plans/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_plans',
    stream: true,
    summary: 'CSV of every plans row the list’s filters select, streamed page by page (view_plan).',
  },
  {
    method: 'GET',
    path: '/api/admin/discount-codes/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_discount_codes',
    stream: true,
    summary: 'CSV of every discount-codes row the list’s filters select, streamed page by page (view_discountcode).',
  },
  {
    method: 'GET',
    path: '/api/admin/offers/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_offers',
    stream: true,
    summary: 'CSV of every offers row the list’s filters select, streamed page by page (view_offer).',
  },
  {
    method: 'GET',
    path: '/api/admin/tickets/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_tickets',
    stream: true,
    summary: 'CSV of every tickets row the list’s filters select, streamed page by page (view_ticket).',
  },
  {
    method: 'GET',
    path: '/api/admin/notifications/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_notifications',
    stream: true,
    summary: 'CSV of every notifications row the list’s filters select, streamed page by page (view_notification).',
  },
  {
    method: 'GET',
    path: '/api/admin/tutor/feedback/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_tutor_feedback',
    stream: true,
    summary: 'CSV of every tutor feedback row the list’s filters select, streamed page by page (view_tutorfeedback).',
  },
  {
    method: 'GET',
    path: '/api/admin/tutor/usage/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_tutor_usage',
    stream: true,
    summary: 'CSV of every tutor usage row the list’s filters select, streamed page by page (view_tutorusage).',
  },
  {
    method: 'GET',
    path: '/api/admin/staff/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_staff',
    stream: true,
    summary: 'CSV of every staff row the list’s filters select, streamed page by page (view_staff).',
  },
  {
    method: 'GET',
    path: '/api/admin/sessions/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_sessions',
    stream: true,
    summary: 'CSV of every sessions row the list’s filters select, streamed page by page (view_session).',
  },
  {
    method: 'GET',
    path: '/api/admin/otp-records/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_otp_records',
    stream: true,
    summary: 'CSV of every otp-records row the list’s filters select, streamed page by page (view_otprecord).',
  },
  {
    method: 'GET',
    path: '/api/admin/history/export.csv',
    group: 'adminexport',
    auth: 'admin',
    throttle: 'admin_export_history',
    stream: true,
    summary: 'CSV of every history row the list’s filters select, streamed page by page (view_logentry).',
  },
] as const;
