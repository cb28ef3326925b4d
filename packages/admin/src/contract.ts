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
  /** The permission verbs the API has routes for (no screen offers another: offers cannot be deleted). */
  verbs: readonly ('view' | 'add' | 'change' | 'delete')[];
  /** Only a superuser may see or change it. */
  superuserOnly?: boolean;
  /** Adding and changing need a superuser (discount codes: spec Authentication 6). */
  superuserWrites?: boolean;
  /** The field that identifies an item when the API gives no `id` (tutor usage is per day). */
  idField?: string;
}

export const RESOURCES = {
  users: { path: 'users', filters: ['q'], model: 'user', verbs: ['view'] },
  orders: { path: 'orders', filters: ['status', 'provider', 'userId'], model: 'order', verbs: ['view', 'change'] },
  'payment-events': { path: 'payment-events', filters: ['orderId', 'kind'], model: 'paymentevent', verbs: ['view'] },
  plans: { path: 'plans', filters: ['onSale'], model: 'plan', verbs: ['view', 'add', 'change', 'delete'] },
  'discount-codes': {
    path: 'discount-codes',
    filters: ['active', 'advertised'],
    model: 'discountcode',
    verbs: ['view', 'add', 'change', 'delete'],
    superuserWrites: true,
  },
  offers: { path: 'offers', filters: [], model: 'offer', verbs: ['view', 'change'] },
  tickets: { path: 'tickets', filters: ['status', 'userId'], model: 'ticket', verbs: ['view', 'change'] },
  notifications: { path: 'notifications', filters: [], model: 'notification', verbs: ['view', 'add'] },
  'tutor-feedback': { path: 'tutor/feedback', filters: ['rating'], model: 'tutorfeedback', verbs: ['view'] },
  'tutor-usage': { path: 'tutor/usage', filters: ['from', 'to'], model: 'tutorusage', verbs: ['view'], idField: 'day' },
  staff: { path: 'staff', filters: [], model: 'staff', verbs: ['view', 'add', 'change', 'delete'], superuserOnly: true },
  sessions: { path: 'sessions', filters: ['userId'], model: 'session', verbs: ['view', 'delete'], superuserOnly: true },
  'otp-records': { path: 'otp-records', filters: ['phone'], model: 'otprecord', verbs: ['view'], superuserOnly: true },
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

/** Permissions only a superuser holds (never granted; docs/admin-api.md "Permissions"). */
export const SUPERUSER_PERMISSIONS: readonly string[] = [
  'view_staff',
  'add_staff',
  'change_staff',
  'delete_staff',
  'view_session',
  'delete_session',
  'view_otprecord',
  'add_discountcode',
  'change_discountcode',
];

/** `{ <permission>: message(permission) }` for every permission (the 403 of each reads in the staff member's language). */
export const perPermission = (message: (permission: string) => string): Record<string, string> =>
  Object.fromEntries([...ALL_PERMISSIONS, ...SUPERUSER_PERMISSIONS].map((p) => [p, message(p)]));

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
/** How a payment was confirmed (a `payment_result`'s `via`, an order's `paidVia`). */
export const PAYMENT_PATHS = ['callback', 'recheck', 'discount', 'marketplace', 'marketplace_renewal'] as const;
export const PAYMENT_RESULTS = ['paid', 'failed', 'unchanged', 'refunded', 'cancelled'] as const;

export const MARKETPLACE_PRODUCT_TYPES = ['subscription', 'inapp'] as const;

/**
 * The admin API's body rules (docs/admin-api.md "Resources"), which the forms' validation mirrors so a form
 * refuses what the API would.
 */
export const LIMITS = {
  title: 100,
  price: 1_000_000_000,
  durationDays: 3650,
  aiDailyQuota: 1000,
  features: 20,
  feature: 200,
  badge: 50,
  sku: 100,
  maxUses: 100_000_000,
  perUserLimit: 1000,
  notificationTitle: 100,
  notificationBody: 2000,
  ticketReply: 5000,
  password: 256,
  /** Hours of a marketplace authorize window (default 72). */
  windowHours: 720,
} as const;
/** The API's default authorize window (DESIGN §8: 72 h). */
export const DEFAULT_WINDOW_HOURS = 72;

/** Staff passwords: at least 10 characters (MIN_PASSWORD_LENGTH of the core). */
export const MIN_PASSWORD_LENGTH = 10;
/** Staff usernames: 3-64 of a-z 0-9 _ . @ - (any case; the API stores them lower case). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{3,64}$/;
/** Discount codes: 3-32 of A-Z 0-9 _ - (matched case-insensitively, stored upper case). */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** Marketplace SKUs: 1-100 of A-Z a-z 0-9 . _ - */
export const SKU_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
