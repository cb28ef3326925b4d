/**
 * One JSON call of the admin API: same-origin, with the session cookie (`credentials: 'include'`). An error
 * answer `{ code, detail, fields? }` becomes a react-admin `HttpError` whose message is the API's `detail` (or the
 * panel's own words for the conflicts it knows: `app.errors.<code>`) and whose `body.errors` maps `fields` to form
 * field errors (react-admin shows them under the inputs, and `root.serverError` as a notification), so a refusal
 * always reads on screen where it happened.
 */
import { HttpError } from 'react-admin';
import { ALL_PERMISSIONS, API_BASE, SUPERUSER_PERMISSIONS } from './contract';

export interface ApiErrorBody {
  code: string;
  detail: string;
  fields?: Record<string, string[]>;
}

/**
 * Refusals that concern one form field but may come without `fields` (a conflict, 409): the field they
 * belong to, so the form marks it.
 */
const FIELD_OF_CODE: Record<string, string> = {
  sku_taken: 'marketplaceSku',
  code_taken: 'code',
  username_taken: 'username',
};

/**
 * Refusals the panel words itself (`app.errors.<code>`, in the staff member's language, with what to do instead);
 * any other refusal reads as the API's `detail` (which names, e.g., the missing permission).
 */
const WORDED_CODES = new Set([
  'sku_taken',
  'code_taken',
  'username_taken',
  'plan_has_orders',
  'discount_code_used',
  // The platform's refusals of any route (503 with Retry-After, 429, 500): what to do, in the staff member's words.
  'database_busy',
  'throttled',
  'server_error',
]);

/** The message of a refusal: the panel's words when it has them (a 403 by the permission its detail names). */
function wordedMessage(body: ApiErrorBody): string {
  if (WORDED_CODES.has(body.code)) return `app.errors.${body.code}`;
  const permission = body.code === 'permission_denied' ? /\b(?:view|add|change|delete)_[a-z]+\b/.exec(body.detail)?.[0] : undefined;
  if (permission && KNOWN_PERMISSIONS.has(permission)) return `app.errors.permission_denied.${permission}`;
  return body.detail || body.code;
}

const KNOWN_PERMISSIONS = new Set([...ALL_PERMISSIONS, ...SUPERUSER_PERMISSIONS]);

export const isApiErrorBody = (body: unknown): body is ApiErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).code === 'string';

/**
 * The react-admin error of a failed answer. Its message is a translation key for the codes the panel words, else
 * the API's detail: show it through `translate(message, { _: message })` (react-admin's notifications and form
 * errors do).
 */
export function toHttpError(status: number, body: unknown, statusText = ''): HttpError {
  if (!isApiErrorBody(body)) return new HttpError(statusText || `HTTP ${status}`, status, body);
  const message = wordedMessage(body);
  const errors: Record<string, unknown> = {};
  for (const [field, messages] of Object.entries(body.fields ?? {})) errors[field] = messages.join(' ');
  const field = FIELD_OF_CODE[body.code];
  if (field) errors[field] = message;
  if (Object.keys(errors).length > 0) errors.root = { serverError: message };
  return new HttpError(message, status, { ...body, errors });
}

export interface ApiResult<T> {
  status: number;
  json: T;
}

/** `fetch` of `/api/admin/<path>`; resolves on 2xx, throws an HttpError otherwise (or on a network failure). */
export async function api<T = any>(
  path: string,
  init: { method?: string; body?: unknown; query?: URLSearchParams } = {},
): Promise<ApiResult<T>> {
  const url = `${API_BASE}/${path}${init.query && [...init.query].length > 0 ? `?${init.query}` : ''}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      credentials: 'include',
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new HttpError('ra.notification.http_error', 0);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  if (!response.ok) throw toHttpError(response.status, json, response.statusText);
  return { status: response.status, json: json as T };
}
