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
export const adminToolGroups = ['admintools'] as const;

/** One throttle scope per route (spec Limits: every throttled route has its own), per staff member. */
export const adminToolThrottles = {
  admin_history: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_stats: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_discount_codes_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_offers_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_tickets_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_users_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
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
] as const;
