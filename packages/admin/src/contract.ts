/**
 * What the panel knows of the admin API (`docs/admin-api.md`), in one place: each react-admin resource's path
 * under `/api/admin/`, the list filters the API accepts (anything else is refused with 400, so nothing else
 * is ever sent), the permission model of each resource, and a few contract values (choices, limits, patterns)
 * that the forms' validation mirrors.
 */

export const API_BASE = '/api/admin';

export interface ResourceContract {
  /** Path under `/api/admin/`. */
  path: string;
  /** List query parameters besides `cursor` and `limit`. */
  filters: readonly string[];
  /** Django-style model name of the permissions (`view_<model>`, ...). */
  model: string;
  /** Only a superuser may see or change it. */
  superuserOnly?: boolean;
  /** Adding and changing need a superuser (discount codes: spec Authentication 6). */
  superuserWrites?: boolean;
  /** The field that identifies an item when the API gives no `id` (tutor usage is per day). */
  idField?: string;
}

export const RESOURCES = {
  users: { path: 'users', filters: ['q'], model: 'user' },
  orders: { path: 'orders', filters: ['status', 'provider', 'userId'], model: 'order' },
  'payment-events': { path: 'payment-events', filters: ['orderId', 'kind'], model: 'paymentevent' },
  plans: { path: 'plans', filters: ['onSale'], model: 'plan' },
  'discount-codes': { path: 'discount-codes', filters: ['active', 'advertised'], model: 'discountcode', superuserWrites: true },
  offers: { path: 'offers', filters: [], model: 'offer' },
  tickets: { path: 'tickets', filters: ['status', 'userId'], model: 'ticket' },
  notifications: { path: 'notifications', filters: [], model: 'notification' },
  'tutor-feedback': { path: 'tutor/feedback', filters: ['rating'], model: 'tutorfeedback' },
  'tutor-usage': { path: 'tutor/usage', filters: ['from', 'to'], model: 'tutorusage', idField: 'day' },
  staff: { path: 'staff', filters: [], model: 'staff', superuserOnly: true },
  sessions: { path: 'sessions', filters: ['userId'], model: 'session', superuserOnly: true },
  'otp-records': { path: 'otp-records', filters: ['phone'], model: 'otprecord', superuserOnly: true },
} as const satisfies Record<string, ResourceContract>;

export type ResourceName = keyof typeof RESOURCES;

export const resourceContract = (resource: string): ResourceContract | undefined =>
  (RESOURCES as Record<string, ResourceContract>)[resource];

/** Every permission a staff member can be given, in the contract's order (superuser-only models have none). */
export const ALL_PERMISSIONS: readonly string[] = [
  'view_user',
  'view_order',
  'change_order',
  'view_paymentevent',
  'view_plan',
  'add_plan',
  'change_plan',
  'delete_plan',
  'view_discountcode',
  'delete_discountcode',
  'view_offer',
  'change_offer',
  'view_ticket',
  'change_ticket',
  'view_notification',
  'add_notification',
  'view_marketplacecredential',
  'change_marketplacecredential',
  'view_tutorfeedback',
  'view_tutorusage',
  'view_apidocs',
];

/** Page size limits of every list (`limit` 1-100, default 25). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'cancelled'] as const;
export const PROVIDERS = ['gateway', 'marketplace'] as const;
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export const RATINGS = ['up', 'down'] as const;
export const OTP_STATES = ['live', 'dead', 'expired'] as const;
export const MARKETPLACE_MODES = ['static_secret', 'oauth', 'none'] as const;
export const PAYMENT_EVENT_KINDS = [
  'order_created',
  'discount_applied',
  'gateway_redirect',
  'gateway_request_failed',
  'callback_received',
  'callback_unknown_authority',
  'payment_result',
  'marketplace_start',
  'admin_cancel',
  'admin_refund',
] as const;

/** Staff passwords: at least 10 characters (MIN_PASSWORD_LENGTH of the core). */
export const MIN_PASSWORD_LENGTH = 10;
/** Staff usernames (the core's USERNAME_PATTERN). */
export const USERNAME_PATTERN = /^[a-z0-9_.@-]{3,64}$/;
/** Discount codes: 3-32 of A-Z 0-9 _ - (matched case-insensitively, stored upper case). */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** Marketplace SKUs (the contract fixes none; product ids of the marketplace are of this shape). */
export const SKU_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
/** A learner's public id (`User123456`). */
export const PUBLIC_ID_PATTERN = /^User[0-9]+$/;
