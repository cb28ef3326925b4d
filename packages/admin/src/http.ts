/**
 * One JSON call of the admin API: same-origin, with the session cookie (`credentials: 'include'`). An error
 * answer `{ code, detail, fields? }` becomes a react-admin `HttpError` whose message is the API's `detail` and
 * whose `body.errors` maps `fields` to form field errors (react-admin shows them under the inputs, and
 * `root.serverError` above the form), so a refusal always reads on screen as the API said it.
 */
import { HttpError } from 'react-admin';
import { API_BASE } from './contract';

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

export const isApiErrorBody = (body: unknown): body is ApiErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).code === 'string';

/** The react-admin error of a failed answer. */
export function toHttpError(status: number, body: unknown, statusText = ''): HttpError {
  if (!isApiErrorBody(body)) return new HttpError(statusText || `HTTP ${status}`, status, body);
  const errors: Record<string, unknown> = {};
  for (const [field, messages] of Object.entries(body.fields ?? {})) errors[field] = messages.join(' ');
  const field = FIELD_OF_CODE[body.code];
  if (field && !(field in errors)) errors[field] = body.detail;
  if (Object.keys(errors).length > 0) errors.root = { serverError: body.detail };
  return new HttpError(body.detail || body.code, status, { ...body, errors });
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
