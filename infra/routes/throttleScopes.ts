/**
 * The throttle scopes of the routes (spec Limits: every throttled route has its own scope) and their limits. A route
 * names its scope in its endpoint group's file (`infra/routes/<group>.ts`); where its hit is counted is decided by the
 * edge (packages/functions/src/lib/throttlePlan.ts).
 */

/**
 * The rate limit of one throttle scope: a fixed window (the domain's `ThrottleRule` of core/throttle, which it
 * satisfies) and what the edge counts in it. Counters live in DynamoDB so that every Lambda instance shares them.
 */
export interface ScopeRule {
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
  // The staff's everyday tools (issue 25): one scope per route, per staff member.
  admin_history: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_stats: { limit: 1200, windowSeconds: 3600, by: 'user' },
  admin_discount_codes_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_offers_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_tickets_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_users_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
  admin_staff_bulk: { limit: 120, windowSeconds: 3600, by: 'user' },
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
} as const satisfies Record<string, ScopeRule>;

export type ThrottleScope = keyof typeof throttleScopes;
