/**
 * What the panel knows of the admin API, read from the API description (`.generated/`, made by
 * `scripts/generate.ts` at build time; docs/admin-api.md): each react-admin resource's path under `/api/admin/`
 * (the panel's own choice of names), and from the document the operation of each action, the permission it needs
 * (`x-permission`), each list's filters and their choices, the rules of each body field, the permissions a staff member
 * can be granted, and the record shapes (`paths`, `components`).
 */
import type { components, paths } from '../../.generated/api';
import { ADMIN_OPERATIONS, GRANTABLE_PERMISSIONS } from '../../.generated/operations';

export const API_BASE = '/api/admin';

/** Each resource's path under `/api/admin/`, and the field that identifies an item when the API gives no `id`. */
const RESOURCES: Record<string, { path: string; idField?: string }> = {
  users: { path: 'users' },
  orders: { path: 'orders' },
  'payment-events': { path: 'payment-events' },
  plans: { path: 'plans' },
  'discount-codes': { path: 'discount-codes' },
  offers: { path: 'offers' },
  tickets: { path: 'tickets' },
  notifications: { path: 'notifications' },
  'tutor-feedback': { path: 'tutor/feedback' },
  'tutor-usage': { path: 'tutor/usage', idField: 'day' },
  staff: { path: 'staff' },
  sessions: { path: 'sessions' },
  'otp-records': { path: 'otp-records' },
  history: { path: 'history' },
  // Pages that are no list: their operations sit at their path.
  marketplace: { path: 'marketplace' },
  dashboard: { path: 'dashboard' },
  stats: { path: 'stats' },
  me: { path: 'me' },
};

export type OperationKey = keyof typeof ADMIN_OPERATIONS;
export interface FieldRule {
  type?: string;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxItems?: number;
  pattern?: string;
  nullable?: boolean;
  items?: FieldRule;
}
interface Operation {
  permission?: string;
  query: Record<string, readonly string[] | null>;
  body?: { required: readonly string[]; fields: Record<string, FieldRule> };
}
const OPERATIONS = ADMIN_OPERATIONS as unknown as Record<string, Operation>;

export interface ResourceContract {
  /** Path under `/api/admin/`. */
  path: string;
  idField?: string;
}

export const resourceContract = (resource: string): ResourceContract | undefined => RESOURCES[resource];

/**
 * The route of each action a screen offers, relative to the resource's path (`{}`: an item's key, whatever the
 * document names it). An action with no such route in the document is offered to nobody.
 */
const ACTION_ROUTES: Record<string, [method: string, suffix: string]> = {
  list: ['GET', ''],
  show: ['GET', '/{}'],
  create: ['POST', ''],
  edit: ['PATCH', '/{}'],
  delete: ['DELETE', '/{}'],
  cancel: ['POST', '/{}/cancel'],
  refund: ['POST', '/{}/refund'],
  reply: ['POST', '/{}/messages'],
  close: ['POST', '/{}/close'],
  end_sessions: ['POST', '/{}/end-sessions'],
  authorize: ['POST', '/authorize-window'],
  export: ['GET', '/export.csv'],
  bulk: ['POST', '/bulk'],
  password: ['POST', '/password'],
};

/** `GET /api/admin/orders/{id}` → `GET /api/admin/orders/{}`. */
const shapeOf = (key: string) => key.replace(/\{[^}]+\}/g, '{}');
const BY_SHAPE = new Map(Object.keys(OPERATIONS).map((key) => [shapeOf(key), key]));

/** The operation behind `action` on `resource` (`{ key: 'POST /api/admin/orders/{id}/cancel', ... }`), if the API has one. */
export function operationOf(resource: string, action: string): (Operation & { key: string }) | undefined {
  const contract = RESOURCES[resource];
  const route = ACTION_ROUTES[action];
  if (!contract || !route) return undefined;
  const key = BY_SHAPE.get(`${route[0]} ${API_BASE}/${contract.path}${route[1]}`);
  return key ? { key, ...(OPERATIONS[key] as Operation) } : undefined;
}

/** The list query parameters of `resource` besides `cursor` and `limit`, with their choices (null: free text). */
export function listFilters(resource: string): Record<string, readonly string[] | null> {
  const { cursor: _cursor, limit: _limit, order: _order, ...filters } = operationOf(resource, 'list')?.query ?? {};
  return filters;
}

/** The fields a list can be sorted by (its `sort` parameter's choices; none when the API sorts it itself). */
export const sortableFields = (resource: string): readonly string[] => listFilters(resource).sort ?? [];

/** The choices of a list filter (`queryChoices('orders', 'status')` → the order statuses). */
export function queryChoices(resource: string, name: string): readonly string[] {
  const choices = listFilters(resource)[name];
  if (!choices) throw new Error(`the API description gives ${resource}'s filter ${name} no choices`);
  return choices;
}

/** The rule of a body field of an operation (`bodyRule('POST /api/admin/plans', 'title')`). */
export function bodyRule(key: OperationKey, field: string): { rule: FieldRule; required: boolean } {
  const body = OPERATIONS[key]?.body;
  const rule = body?.fields[field];
  if (!body || !rule) throw new Error(`the API description has no body field ${field} in ${key}`);
  return { rule, required: body.required.includes(field) };
}

/** The choices of an enum body field (`bodyChoices('POST /api/admin/plans', 'marketplaceProductType')`). */
export const bodyChoices = (key: OperationKey, field: string): readonly string[] => bodyRule(key, field).rule.enum ?? [];

export type Permission = (typeof GRANTABLE_PERMISSIONS)[number];

/** Every permission a staff member can be given, in the API's order. */
export const ALL_PERMISSIONS: readonly string[] = GRANTABLE_PERMISSIONS;

/** Permissions some route needs that are never granted (only a superuser holds them: staff, sessions, OTP records...). */
export const SUPERUSER_PERMISSIONS: readonly string[] = [
  ...new Set(Object.values(OPERATIONS).flatMap((op) => (op.permission && !ALL_PERMISSIONS.includes(op.permission) ? [op.permission] : []))),
];

/** `{ <permission>: message(permission) }` for every permission (the 403 of each reads in the staff member's language). */
export const perPermission = (message: (permission: string) => string): Record<string, string> =>
  Object.fromEntries([...ALL_PERMISSIONS, ...SUPERUSER_PERMISSIONS].map((p) => [p, message(p)]));

/** Page size limits of every list (`limit` 1-100, default 25; docs/admin-api.md "Session and conventions"). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;

type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
/** The JSON answer (200 or 201) of an operation: `Answer<'/api/admin/marketplace', 'get'>`. */
export type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? JsonOf<R[(200 | 201) & keyof R]>
  : never;
export type Schemas = components['schemas'];
