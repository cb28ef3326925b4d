/**
 * The route manifest: every HTTP route of the API with its endpoint group (= one Lambda), its auth kind and
 * its throttle scope (DESIGN §2, §3; spec "Endpoints").
 *
 * Read by `stacks/Api.ts` (one function per group, one API Gateway route per entry), by the local runtime
 * (which matches requests against it to build API Gateway v2 events) and by the contract tests (every
 * route has an implementation in its group's handler module and is deployed).
 *
 * Paths use API Gateway syntax (`{id}`); path ids are ASCII decimal and anything else is 400 `invalid_id`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call a route.
 * - `none`: anyone.
 * - `user`: `Authorization: Bearer <accessToken>` of a live session.
 * - `internal`: header `X-Internal-Key` equal to INTERNAL_SERVICE_KEY (closed when unset or in debug mode).
 * - `admin`: an admin (staff) session cookie; routes needing a permission declare it in their implementation.
 */
export type AuthKind = 'none' | 'user' | 'internal' | 'admin';

/** A fixed-window rate limit; counters live in DynamoDB so that every Lambda instance shares them. */
export interface ThrottleRule {
  /** Requests allowed per window. */
  limit: number;
  /** Window length, seconds. */
  windowSeconds: number;
  /**
   * What is counted: the viewer's address (CloudFront-Viewer-Address, an IPv6 address by its /64; DESIGN §12), or the
   * signed-in user or staff member (the address without one).
   */
  by: 'ip' | 'user';
}

/**
 * Throttle scopes. Every throttled route has its own scope (spec "Limits"); the spec fixes `login`
 * (300 per hour per IP) and `lesson_complete` (120 per hour); the other values are ours (docs/decisions.md).
 */
export const throttleScopes = {
  otp_request: { limit: 300, windowSeconds: 3600, by: 'ip' },
  login: { limit: 300, windowSeconds: 3600, by: 'ip' },
  token_refresh: { limit: 600, windowSeconds: 3600, by: 'ip' },
  logout: { limit: 600, windowSeconds: 3600, by: 'ip' },
  curriculum_grades: { limit: 1200, windowSeconds: 3600, by: 'ip' },
  curriculum_grade: { limit: 1200, windowSeconds: 3600, by: 'ip' },
  node_questions: { limit: 1200, windowSeconds: 3600, by: 'ip' },
  lesson_questions: { limit: 1200, windowSeconds: 3600, by: 'ip' },
  home: { limit: 1200, windowSeconds: 3600, by: 'user' },
  node_progress: { limit: 1200, windowSeconds: 3600, by: 'user' },
  answer: { limit: 1200, windowSeconds: 3600, by: 'user' },
  lesson_complete: { limit: 120, windowSeconds: 3600, by: 'user' },
  node_complete: { limit: 120, windowSeconds: 3600, by: 'user' },
  intro: { limit: 600, windowSeconds: 3600, by: 'ip' },
  hearts: { limit: 1200, windowSeconds: 3600, by: 'user' },
  summary: { limit: 1200, windowSeconds: 3600, by: 'user' },
  profile_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  profile_update: { limit: 120, windowSeconds: 3600, by: 'user' },
  leaderboard: { limit: 600, windowSeconds: 3600, by: 'user' },
  weekly_report: { limit: 600, windowSeconds: 3600, by: 'user' },
  account_delete: { limit: 10, windowSeconds: 3600, by: 'user' },
  notifications_list: { limit: 1200, windowSeconds: 3600, by: 'user' },
  notification_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  notifications_read_all: { limit: 300, windowSeconds: 3600, by: 'user' },
  tickets_list: { limit: 600, windowSeconds: 3600, by: 'user' },
  ticket_create: { limit: 20, windowSeconds: 3600, by: 'user' },
  ticket_read: { limit: 600, windowSeconds: 3600, by: 'user' },
  ticket_message: { limit: 60, windowSeconds: 3600, by: 'user' },
  plans: { limit: 1200, windowSeconds: 3600, by: 'ip' },
  offers: { limit: 1200, windowSeconds: 3600, by: 'ip' },
  purchase: { limit: 60, windowSeconds: 3600, by: 'user' },
  subscription_status: { limit: 600, windowSeconds: 3600, by: 'user' },
  discount_redeem: { limit: 30, windowSeconds: 3600, by: 'user' },
  affiliate_read: { limit: 600, windowSeconds: 3600, by: 'user' },
  affiliate_bind: { limit: 30, windowSeconds: 3600, by: 'user' },
  invoices: { limit: 600, windowSeconds: 3600, by: 'user' },
  payment_pay: { limit: 300, windowSeconds: 3600, by: 'ip' },
  payment_callback: { limit: 300, windowSeconds: 3600, by: 'ip' },
  marketplace_start: { limit: 120, windowSeconds: 3600, by: 'user' },
  marketplace_verify: { limit: 120, windowSeconds: 3600, by: 'user' },
  marketplace_authorize: { limit: 30, windowSeconds: 3600, by: 'ip' },
  admin_marketplace: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_marketplace_window: { limit: 30, windowSeconds: 3600, by: 'user' },
  // Every request of an address; failed sign-ins are limited per (username, address) and per username by the admin
  // domain (packages/core/src/admin/signInGuard.ts), which counts failures only (DESIGN §12).
  admin_login: { limit: 120, windowSeconds: 3600, by: 'ip' },
  admin_logout: { limit: 120, windowSeconds: 3600, by: 'ip' },
  admin_me: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_dashboard: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_staff_list: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_staff_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_sessions: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_otp_records: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_users: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_user_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_orders: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_order_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_order_events: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_order_refund_preview: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_payment_events: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_plans: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_plan_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_discount_codes: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_discount_code_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_offers: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_offer_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_tickets: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_ticket_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_notifications: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_tutor_feedback: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_tutor_usage: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_staff_create: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_staff_update: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_staff_delete: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_staff_end_sessions: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_me_end_sessions: { limit: 60, windowSeconds: 3600, by: 'user' },
  admin_session_revoke: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_order_cancel: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_order_refund: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_plan_create: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_plan_update: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_plan_delete: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_discount_code_create: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_discount_code_update: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_discount_code_delete: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_offer_update: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_ticket_reply: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_ticket_close: { limit: 300, windowSeconds: 3600, by: 'user' },
  admin_notification_send: { limit: 300, windowSeconds: 3600, by: 'user' },
  ai_ask: { limit: 120, windowSeconds: 3600, by: 'user' },
  ai_history: { limit: 1200, windowSeconds: 3600, by: 'user' },
  ai_feedback: { limit: 300, windowSeconds: 3600, by: 'user' },
  rag_document_create: { limit: 600, windowSeconds: 3600, by: 'ip' },
  rag_document_delete: { limit: 600, windowSeconds: 3600, by: 'ip' },
  api_schema: { limit: 600, windowSeconds: 3600, by: 'user' },
  api_docs: { limit: 600, windowSeconds: 3600, by: 'user' },
  api_redoc: { limit: 600, windowSeconds: 3600, by: 'user' },
  api_docs_assets: { limit: 1200, windowSeconds: 3600, by: 'user' },
  // Learning that brings children back (DESIGN §13): the mistakes review, and the parent's report, whose code
  // request and check count per address exactly as sign-in's `otp_request` and `login` do.
  review: { limit: 1200, windowSeconds: 3600, by: 'user' },
  review_answer: { limit: 1200, windowSeconds: 3600, by: 'user' },
  parent_read: { limit: 1200, windowSeconds: 3600, by: 'user' },
  parent_code: { limit: 300, windowSeconds: 3600, by: 'ip' },
  parent_verify: { limit: 300, windowSeconds: 3600, by: 'ip' },
  parent_remove: { limit: 120, windowSeconds: 3600, by: 'user' },
  parent_stop: { limit: 300, windowSeconds: 3600, by: 'ip' },
} as const satisfies Record<string, ThrottleRule>;

export type ThrottleScope = keyof typeof throttleScopes;

/**
 * Endpoint groups; each is `packages/functions/src/groups/<group>.ts` exporting `handler` and `routes`.
 * A group whose routes are `stream: true` (the tutor) is deployed as a Lambda function URL in RESPONSE_STREAM
 * mode (`stacks/Tutor.ts`) instead of behind API Gateway; see {@link streamedGroups}.
 */
export const endpointGroups = [
  'health',
  'auth',
  'curriculum',
  'learning',
  'user',
  'fallback',
  'leaderboard',
  'notifications',
  'support',
  'billing',
  'payment',
  'marketplace',
  'admin',
  'adminsales',
  'admincatalog',
  'adminsupport',
  'tutor',
  'ai',
  'rag',
  'docs',
] as const;
export type EndpointGroup = (typeof endpointGroups)[number];

export interface RouteSpec {
  method: HttpMethod;
  path: string;
  group: EndpointGroup;
  auth: AuthKind;
  throttle?: ThrottleScope;
  /**
   * The response is streamed (`text/plain; charset=utf-8`, written as it is produced). Such a route's group is
   * deployed as a Lambda function URL in RESPONSE_STREAM mode, not behind API Gateway (DESIGN §1), and its
   * handler is wrapped with `awslambda.streamifyResponse`. Every route of a streamed group must be streamed.
   */
  stream?: true;
  /** One line for the API reference. */
  summary: string;
}

export const routes: readonly RouteSpec[] = [
  { method: 'GET', path: '/api/health', group: 'health', auth: 'none', summary: 'Liveness; details with a correct X-Internal-Key.' },

  {
    method: 'POST',
    path: '/api/auth/otp/request',
    group: 'auth',
    auth: 'none',
    throttle: 'otp_request',
    summary: 'Send a 6-digit sign-in code by SMS.',
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    group: 'auth',
    auth: 'none',
    throttle: 'login',
    summary: 'Exchange phone + code for an accessToken and refreshToken.',
  },
  {
    method: 'POST',
    path: '/api/auth/refresh',
    group: 'auth',
    auth: 'none',
    throttle: 'token_refresh',
    summary: 'New accessToken from a refreshToken.',
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    group: 'auth',
    auth: 'none',
    throttle: 'logout',
    summary: 'End the session of a refreshToken.',
  },

  {
    method: 'GET',
    path: '/api/curriculum/grades',
    group: 'curriculum',
    auth: 'none',
    throttle: 'curriculum_grades',
    summary: 'Grades of the question bank.',
  },
  {
    method: 'GET',
    path: '/api/curriculum/grades/{id}',
    group: 'curriculum',
    auth: 'none',
    throttle: 'curriculum_grade',
    summary: 'A grade with its units, nodes and lessons.',
  },
  {
    method: 'GET',
    path: '/api/nodes/{id}/questions',
    group: 'curriculum',
    auth: 'none',
    throttle: 'node_questions',
    summary: "A node's questions, without answer keys.",
  },
  {
    method: 'GET',
    path: '/api/lessons/{id}/questions',
    group: 'curriculum',
    auth: 'none',
    throttle: 'lesson_questions',
    summary: "A lesson's questions, without answer keys.",
  },

  {
    method: 'GET',
    path: '/api/intro',
    group: 'curriculum',
    auth: 'none',
    throttle: 'intro',
    summary: 'Onboarding screens of the app.',
  },

  {
    method: 'GET',
    path: '/api/home',
    group: 'learning',
    auth: 'user',
    throttle: 'home',
    summary: 'The map of the learner’s grade with locked/completed state per node.',
  },
  {
    method: 'GET',
    path: '/api/progress/nodes',
    group: 'learning',
    auth: 'user',
    throttle: 'node_progress',
    summary: 'The caller’s node progress.',
  },
  {
    method: 'POST',
    path: '/api/questions/{id}/answer',
    group: 'learning',
    auth: 'user',
    throttle: 'answer',
    summary: 'Answer a question; checked and recorded on the server.',
  },
  {
    method: 'POST',
    path: '/api/nodes/{id}/quiz/complete',
    group: 'learning',
    auth: 'user',
    throttle: 'node_complete',
    summary: 'Complete a node from its recorded answers.',
  },
  {
    method: 'POST',
    path: '/api/lessons/{id}/complete',
    group: 'learning',
    auth: 'user',
    throttle: 'lesson_complete',
    summary: 'Complete a lesson from its recorded answers.',
  },

  {
    method: 'GET',
    path: '/api/hearts',
    group: 'user',
    auth: 'user',
    throttle: 'hearts',
    summary: 'Hearts now, the maximum, whether they are enforced, and when the next one comes back.',
  },
  {
    method: 'GET',
    path: '/api/user/summary',
    group: 'user',
    auth: 'user',
    throttle: 'summary',
    summary: 'XP, stars, streak, hearts, completed islands, the active plan’s name.',
  },
  {
    method: 'GET',
    path: '/api/user/profile',
    group: 'user',
    auth: 'user',
    throttle: 'profile_read',
    summary: 'The learner’s profile.',
  },
  {
    method: 'PATCH',
    path: '/api/user/profile',
    group: 'user',
    auth: 'user',
    throttle: 'profile_update',
    summary: 'Change display name, Jalali birth date or grade.',
  },
  {
    method: 'GET',
    path: '/api/user/weekly-report',
    group: 'user',
    auth: 'user',
    throttle: 'weekly_report',
    summary: 'The last 7 Tehran days next to the 7 before: minutes, questions, accuracy, islands, tutor questions.',
  },
  {
    method: 'POST',
    path: '/api/user/delete',
    group: 'user',
    auth: 'user',
    throttle: 'account_delete',
    summary: 'Delete the account after a fresh sign-in code; payment records are kept.',
  },

  {
    method: 'GET',
    path: '/api/leaderboard',
    group: 'leaderboard',
    auth: 'user',
    throttle: 'leaderboard',
    summary: 'Weekly or overall ranking by XP with the caller’s own rank (cached 60 s).',
  },

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

  {
    method: 'GET',
    path: '/api/tickets',
    group: 'support',
    auth: 'user',
    throttle: 'tickets_list',
    summary: 'The learner’s support tickets.',
  },
  {
    method: 'POST',
    path: '/api/tickets',
    group: 'support',
    auth: 'user',
    throttle: 'ticket_create',
    summary: 'Open a support ticket { subject, text }.',
  },
  {
    method: 'GET',
    path: '/api/tickets/{id}',
    group: 'support',
    auth: 'user',
    throttle: 'ticket_read',
    summary: 'One of the learner’s tickets with its messages.',
  },
  {
    method: 'POST',
    path: '/api/tickets/{id}/messages',
    group: 'support',
    auth: 'user',
    throttle: 'ticket_message',
    summary: 'Add a message { text } to one of the learner’s tickets.',
  },

  {
    method: 'GET',
    path: '/api/plans',
    group: 'billing',
    auth: 'none',
    throttle: 'plans',
    summary: 'Subscription plans on sale and freeAiDailyQuota.',
  },
  {
    method: 'GET',
    path: '/api/offers',
    group: 'billing',
    auth: 'none',
    throttle: 'offers',
    summary: 'Advertised discount codes valid now.',
  },
  {
    method: 'POST',
    path: '/api/subscription/purchase',
    group: 'billing',
    auth: 'user',
    throttle: 'purchase',
    summary: 'Create a pending order for a plan (Idempotency-Key header); answers orderId and paymentUrl.',
  },
  {
    method: 'GET',
    path: '/api/subscription/status',
    group: 'billing',
    auth: 'user',
    throttle: 'subscription_status',
    summary: 'Subscription state, after re-checking the caller’s unpaid orders with the gateway.',
  },
  {
    method: 'POST',
    path: '/api/discounts/redeem',
    group: 'billing',
    auth: 'user',
    throttle: 'discount_redeem',
    summary: 'Apply a discount code to one of the caller’s pending orders before the gateway step.',
  },
  {
    method: 'GET',
    path: '/api/affiliate',
    group: 'billing',
    auth: 'user',
    throttle: 'affiliate_read',
    summary: 'The caller’s referral code, invitees and commission.',
  },
  {
    method: 'POST',
    path: '/api/affiliate/referrer',
    group: 'billing',
    auth: 'user',
    throttle: 'affiliate_bind',
    summary: 'Bind the caller to a referrer by referral code (once).',
  },
  {
    method: 'GET',
    path: '/api/payment/invoices',
    group: 'billing',
    auth: 'user',
    throttle: 'invoices',
    summary: 'The caller’s invoices (paid and refunded orders).',
  },

  {
    method: 'GET',
    path: '/api/payment/orders/{id}/pay',
    group: 'payment',
    auth: 'none',
    throttle: 'payment_pay',
    summary: 'Redirect to the gateway’s start page (authority requested on first visit), or to the frontend for a finished order.',
  },
  {
    method: 'GET',
    path: '/api/payment/gateway/callback',
    group: 'payment',
    auth: 'none',
    throttle: 'payment_callback',
    summary: 'Where the gateway sends the browser back: verifies server to server, then redirects to the frontend.',
  },

  {
    method: 'POST',
    path: '/api/payment/marketplace/orders/{id}/start',
    group: 'marketplace',
    auth: 'user',
    throttle: 'marketplace_start',
    summary:
      'Start the in-app purchase of a marketplace order: its SKU, the developerPayload binding it, a signed dynamic price when discounted.',
  },
  {
    method: 'POST',
    path: '/api/payment/marketplace/verify',
    group: 'marketplace',
    auth: 'user',
    throttle: 'marketplace_verify',
    summary: 'Verify a marketplace purchase token { orderId, purchaseToken } with the marketplace and grant the plan.',
  },
  {
    method: 'GET',
    path: '/api/payment/marketplace/verify',
    group: 'marketplace',
    auth: 'none',
    throttle: 'marketplace_authorize',
    summary: 'Where the marketplace sends its account owner back (code, state): the one-time OAuth exchange, inside an open window only.',
  },
  {
    method: 'GET',
    path: '/api/admin/marketplace',
    group: 'marketplace',
    auth: 'admin',
    throttle: 'admin_marketplace',
    summary: 'The marketplace connection: credential mode, connected, the authorization window.',
  },
  {
    method: 'POST',
    path: '/api/admin/marketplace/authorize-window',
    group: 'marketplace',
    auth: 'admin',
    throttle: 'admin_marketplace_window',
    summary: 'Open a marketplace authorization window { hours? } and get the consent link for the account owner.',
  },

  {
    method: 'POST',
    path: '/api/admin/login',
    group: 'admin',
    auth: 'none',
    throttle: 'admin_login',
    summary: 'Staff sign-in (failures limited per username and address, and per username); sets the admin session cookie.',
  },
  {
    method: 'POST',
    path: '/api/admin/logout',
    group: 'admin',
    auth: 'none',
    throttle: 'admin_logout',
    summary: 'Ends the admin session and clears its cookie.',
  },
  {
    method: 'GET',
    path: '/api/admin/me',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_me',
    summary: 'The signed-in staff member: username, superuser flag, permissions.',
  },
  {
    method: 'GET',
    path: '/api/admin/dashboard',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_dashboard',
    summary: "Today's (Tehran) sign-ins, new users, orders, paid orders and revenue.",
  },
  {
    method: 'GET',
    path: '/api/admin/staff',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_staff_list',
    summary: 'Staff accounts (superuser).',
  },
  {
    method: 'POST',
    path: '/api/admin/staff',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_staff_create',
    summary: 'Create a staff account with a password and permissions (superuser).',
  },
  {
    method: 'GET',
    path: '/api/admin/staff/{username}',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_staff_read',
    summary: 'One staff account (superuser).',
  },
  {
    method: 'PATCH',
    path: '/api/admin/staff/{username}',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_staff_update',
    summary: 'Change a staff account: password, superuser flag, permissions, active (superuser).',
  },
  {
    method: 'DELETE',
    path: '/api/admin/staff/{username}',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_staff_delete',
    summary: 'Delete a staff account (superuser).',
  },
  {
    method: 'POST',
    path: '/api/admin/staff/{username}/end-sessions',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_staff_end_sessions',
    summary: 'End every session of a staff member, wherever it was opened (superuser).',
  },
  {
    method: 'POST',
    path: '/api/admin/me/end-sessions',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_me_end_sessions',
    summary: 'Sign out everywhere: end every session of the signed-in staff member, this one included.',
  },
  {
    method: 'GET',
    path: '/api/admin/sessions',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_sessions',
    summary: "Learners' live refresh sessions, by learner (superuser).",
  },
  {
    method: 'DELETE',
    path: '/api/admin/sessions/{sessionId}',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_session_revoke',
    summary: "Revoke a learner's session (superuser).",
  },
  {
    method: 'GET',
    path: '/api/admin/otp-records',
    group: 'admin',
    auth: 'admin',
    throttle: 'admin_otp_records',
    summary: 'One-time code records per phone, never a code (superuser).',
  },
  {
    method: 'GET',
    path: '/api/admin/users',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_users',
    summary: 'Learners newest first; q finds a publicId, a phone or part of a display name.',
  },
  {
    method: 'GET',
    path: '/api/admin/users/{id}',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_user_read',
    summary: 'A learner with their latest orders.',
  },
  {
    method: 'GET',
    path: '/api/admin/orders',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_orders',
    summary: 'Orders newest first, by status, provider and learner.',
  },
  {
    method: 'GET',
    path: '/api/admin/orders/{id}',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_order_read',
    summary: 'One order.',
  },
  {
    method: 'GET',
    path: '/api/admin/orders/{id}/events',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_order_events',
    summary: 'The payment events (audit rows) of an order, read-only.',
  },
  {
    method: 'POST',
    path: '/api/admin/orders/{id}/cancel',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_order_cancel',
    summary: 'Cancel a pending order (change_order).',
  },
  {
    method: 'GET',
    path: '/api/admin/orders/{id}/refund',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_order_refund_preview',
    summary: "The refund confirmation page's data: days and commission the refund takes back.",
  },
  {
    method: 'POST',
    path: '/api/admin/orders/{id}/refund',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_order_refund',
    summary: 'Refund a paid order with `{ confirm: true }`: days taken back, commission undone (change_order).',
  },
  {
    method: 'GET',
    path: '/api/admin/payment-events',
    group: 'adminsales',
    auth: 'admin',
    throttle: 'admin_payment_events',
    summary: 'Payment events newest first across orders, by order and kind, read-only.',
  },
  {
    method: 'GET',
    path: '/api/admin/plans',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_plans',
    summary: 'Subscription plans with their marketplace SKU.',
  },
  {
    method: 'POST',
    path: '/api/admin/plans',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_plan_create',
    summary: 'Create a plan.',
  },
  { method: 'GET', path: '/api/admin/plans/{id}', group: 'admincatalog', auth: 'admin', throttle: 'admin_plan_read', summary: 'One plan.' },
  {
    method: 'PATCH',
    path: '/api/admin/plans/{id}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_plan_update',
    summary: 'Change a plan (marketplaceSku unique: 409 sku_taken).',
  },
  {
    method: 'DELETE',
    path: '/api/admin/plans/{id}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_plan_delete',
    summary: 'Delete a plan that has no orders.',
  },
  {
    method: 'GET',
    path: '/api/admin/discount-codes',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_discount_codes',
    summary: 'Discount codes, by active and advertised.',
  },
  {
    method: 'POST',
    path: '/api/admin/discount-codes',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_discount_code_create',
    summary: 'Create a discount code (superuser).',
  },
  {
    method: 'GET',
    path: '/api/admin/discount-codes/{code}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_discount_code_read',
    summary: 'One discount code.',
  },
  {
    method: 'PATCH',
    path: '/api/admin/discount-codes/{code}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_discount_code_update',
    summary: 'Change a discount code (superuser).',
  },
  {
    method: 'DELETE',
    path: '/api/admin/discount-codes/{code}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_discount_code_delete',
    summary: 'Delete an unused discount code.',
  },
  {
    method: 'GET',
    path: '/api/admin/offers',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_offers',
    summary: 'The advertised discount codes.',
  },
  {
    method: 'GET',
    path: '/api/admin/offers/{code}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_offer_read',
    summary: 'One offer.',
  },
  {
    method: 'PATCH',
    path: '/api/admin/offers/{code}',
    group: 'admincatalog',
    auth: 'admin',
    throttle: 'admin_offer_update',
    summary: "Change an offer's title or whether the code is advertised.",
  },
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

  {
    method: 'POST',
    path: '/api/ai/ask',
    group: 'tutor',
    auth: 'user',
    throttle: 'ai_ask',
    stream: true,
    summary: 'Ask the math tutor; the plain-text answer is streamed as the model writes it.',
  },
  {
    method: 'GET',
    path: '/api/ai/history',
    group: 'ai',
    auth: 'user',
    throttle: 'ai_history',
    summary: 'The caller’s tutor messages, newest first.',
  },
  {
    method: 'POST',
    path: '/api/ai/feedback',
    group: 'ai',
    auth: 'user',
    throttle: 'ai_feedback',
    summary: 'Rate one of the tutor’s answers to the caller (up or down, optional comment).',
  },
  {
    method: 'POST',
    path: '/api/internal/rag/documents',
    group: 'rag',
    auth: 'internal',
    throttle: 'rag_document_create',
    summary: 'Ingest textbook text of a grade (and lesson): chunked, embedded, stored for retrieval.',
  },
  {
    method: 'DELETE',
    path: '/api/internal/rag/documents/{id}',
    group: 'rag',
    auth: 'internal',
    throttle: 'rag_document_delete',
    summary: 'Remove an ingested textbook document and its chunks.',
  },

  {
    method: 'GET',
    path: '/api/schema',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_schema',
    summary: 'This API’s OpenAPI 3.1 document (JSON), generated from the route definitions (view_apidocs).',
  },
  {
    method: 'GET',
    path: '/api/docs',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_docs',
    summary: 'The API document in Swagger UI, served with its assets by the service (view_apidocs).',
  },
  {
    method: 'GET',
    path: '/api/redoc',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_redoc',
    summary: 'The API document in Redoc, served with its assets by the service (view_apidocs).',
  },
  {
    method: 'GET',
    path: '/api/docs/assets/{file}',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_docs_assets',
    summary: 'A script or style sheet of the two viewers (Swagger UI, Redoc), never from another host (view_apidocs).',
  },

  // Learning that brings children back (DESIGN §13): the mistakes review and the parent's weekly report.
  {
    method: 'GET',
    path: '/api/review',
    group: 'learning',
    auth: 'user',
    throttle: 'review',
    summary: 'The caller’s mistakes review: how many questions are due, and up to 20 of them, due first (Leitner boxes).',
  },
  {
    method: 'POST',
    path: '/api/review/{id}/answer',
    group: 'learning',
    auth: 'user',
    throttle: 'review_answer',
    summary: 'Answer a question of the mistakes review: right moves it up a box, wrong back to box 1; 2 XP a right answer.',
  },
  {
    method: 'GET',
    path: '/api/user/parent',
    group: 'user',
    auth: 'user',
    throttle: 'parent_read',
    summary: 'The parent’s weekly report: the confirmed number, a number waiting for its code, the last and next report.',
  },
  {
    method: 'POST',
    path: '/api/user/parent',
    group: 'user',
    auth: 'user',
    throttle: 'parent_code',
    summary: 'Send a parent’s number a code; it gets weekly reports once confirmed with it.',
  },
  {
    method: 'POST',
    path: '/api/user/parent/verify',
    group: 'user',
    auth: 'user',
    throttle: 'parent_verify',
    summary: 'Confirm the parent’s number with the code it received.',
  },
  {
    method: 'DELETE',
    path: '/api/user/parent',
    group: 'user',
    auth: 'user',
    throttle: 'parent_remove',
    summary: 'Remove the parent’s number: no more reports.',
  },
  {
    method: 'GET',
    path: '/api/parent/stop',
    group: 'user',
    auth: 'none',
    throttle: 'parent_stop',
    summary: 'The stop link of a parent’s weekly SMS (signed token, no sign-in): no more reports to that number.',
  },
];

/**
 * The regular expression matching request paths of a manifest path: `{name}` captures one segment as the
 * named group `name`, other characters match literally, one trailing slash is allowed.
 */
export const routePattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^/}]+)\}/g, '(?<$1>[^/]+)')}/?$`);

/** API Gateway's route key of a route, e.g. `GET /api/home`. */
export const routeKey = (r: Pick<RouteSpec, 'method' | 'path'>): string => `${r.method} ${r.path}`;

/**
 * The catch-all: API Gateway's `$default` route goes to the `fallback` group, which answers 404 `not_found`
 * or 405 `method_not_allowed` in the service's error body instead of API Gateway's own.
 */
export const fallbackGroup: EndpointGroup = 'fallback';

/**
 * The endpoint groups whose routes are streamed (`stream: true`): deployed as streaming function URLs by
 * `stacks/Tutor.ts`, left out of API Gateway by `stacks/Api.ts`, and served through the `streamifyResponse`
 * shim by the local runtime.
 */
export const streamedGroups: readonly EndpointGroup[] = endpointGroups.filter((g) => routes.some((r) => r.group === g && r.stream));

/** Whether `group` is a streamed group (see {@link streamedGroups}). */
export const isStreamedGroup = (group: EndpointGroup): boolean => streamedGroups.includes(group);
