/**
 * What a route answers, declared beside the route (`responses`, `errors` of `route.ts`) and read by the OpenAPI
 * generator (`openapi/`) and by the test stacks' response check (`packages/local/src/responseCheck.ts`), so the
 * published document and the real answers cannot drift (DESIGN §10).
 *
 * - A route's `responses` maps each success status to a zod schema (a JSON body) or a {@link ResponseSpec} (no body:
 *   204, 302; another content type: the tutor's `text/plain` stream, an HTML page; headers).
 * - Its error responses are the codes its kind implies ({@link impliedErrors}: auth, throttle, input, `{id}`) plus
 *   the ones it declares in `errors` (code → when), each answered with the {@link ErrorBody} at the status
 *   `lib/errors.ts` gives the code (`code/reason` for a status refined by a reason, e.g. `discount_not_allowed/marketplace`).
 *
 * Light on purpose: zod only, so every endpoint group may import it (the generator itself is never bundled into a
 * Lambda: it runs at build time).
 */
import type { ZodType } from 'zod';
import type { RouteSpec } from '../../../../infra/routes';
import { statusOfCode, statusOfReason } from './errors';

/** A response header: its schema and what it means. */
export interface ResponseHeader {
  schema: ZodType;
  description: string;
  /** Whether every such response carries it (default true). */
  required?: boolean;
}

/** Named examples of a body: name → a one-line summary and the value. */
export type Examples = Record<string, { summary: string; value: unknown }>;

/** A documented response that is not a plain JSON body (or one with headers or an example). */
export interface ResponseSpec {
  description: string;
  /** The body's schema; none for 204 and 302. A JSON body unless `contentType` says otherwise. */
  body?: ZodType;
  /** `application/json` by default; `text/plain; charset=utf-8` for a stream, `text/html; charset=utf-8` for a page (several: any of them). */
  contentType?: string | readonly string[];
  headers?: Record<string, ResponseHeader>;
  /** Named example bodies for the document (a main flow's typical answers). */
  examples?: Examples;
  /** The body is written as it is produced (the tutor; DESIGN §1). */
  streamed?: boolean;
}

/** A JSON body schema, or the full form. */
export type ResponseDoc = ZodType | ResponseSpec;

/** Success responses of a route by status. */
export type Responses = Record<number, ResponseDoc>;

/** Whether `doc` is the full form (a zod schema has `_zod`). */
export const isResponseSpec = (doc: ResponseDoc): doc is ResponseSpec => !('_zod' in doc);

/** The full form of any documented response. */
export const responseSpec = (doc: ResponseDoc, status: number): ResponseSpec =>
  isResponseSpec(doc) ? doc : { description: status === 201 ? 'Created' : 'OK', body: doc };

/** A JSON answer with a description (and optionally headers and an example). */
export const json = (body: ZodType, description: string, more: Omit<ResponseSpec, 'body' | 'description'> = {}): ResponseSpec => ({
  description,
  body,
  ...more,
});

/** 204: no body. */
export const noContent = (description: string, headers?: Record<string, ResponseHeader>): ResponseSpec => ({
  description,
  ...(headers ? { headers } : {}),
});

/** 302 to `Location` (no body). */
export const found = (description: string, location: ZodType): ResponseSpec => ({
  description,
  headers: { Location: { schema: location, description: 'Where the browser goes next' } },
});

/** A non-JSON body (`text/html`, `text/plain`, a script). */
export const text = (
  contentType: string | readonly string[],
  body: ZodType,
  description: string,
  more: Partial<ResponseSpec> = {},
): ResponseSpec => ({
  description,
  contentType,
  body,
  ...more,
});

/** Error codes a route declares beyond the implied ones: code (or `code/reason`) → when it is answered. */
export type ErrorDocs = Record<string, string>;

/** The HTTP status of a documented error code (`code` or `code/reason`); throws for a code `lib/errors.ts` does not know. */
export function statusOfDocumented(code: string): number {
  const status = code.includes('/') ? statusOfReason[code] : statusOfCode[code];
  if (status === undefined) throw new Error(`Error code ${code} has no status in packages/functions/src/lib/errors.ts`);
  return status;
}

/** The bare code of a documented `code/reason`. */
export const bareCode = (code: string): string => code.split('/')[0] as string;

/** The parts of a route definition that decide its implied errors. */
export interface DocumentedRoute {
  auth: RouteSpec['auth'];
  permission?: string;
  errors?: ErrorDocs;
}

/**
 * The error codes every route of its kind can answer, with when (DESIGN §3, §7, §11): input (every route parses a
 * body and a query: 400 `validation_error` / `invalid_json`, 413 `body_too_large`), `{id}` (400 `invalid_id`), auth
 * (401/403), throttle (429 `throttled` + Retry-After), and the platform's 500 `server_error` and 503 `database_busy`.
 */
export function impliedErrors(spec: Pick<RouteSpec, 'path' | 'method' | 'auth' | 'throttle'>, def: DocumentedRoute): ErrorDocs {
  const errors: ErrorDocs = {
    validation_error: 'The body or the query string is not valid (`fields` names each problem); unknown fields are refused.',
    invalid_json: 'The body is not valid JSON.',
    body_too_large: 'The body is larger than the route accepts (64 KiB unless stated).',
  };
  if (spec.path.includes('{id}')) errors.invalid_id = 'The path id is not an ASCII decimal number (e.g. Persian digits).';
  if (spec.auth === 'user') {
    errors.not_authenticated = 'No `Authorization: Bearer <accessToken>` header.';
    errors.token_invalid = 'The access token is invalid or expired (refresh it with POST /api/auth/refresh), or its session ended.';
  }
  // The admin API's unsafe methods refuse a foreign Origin whatever the route's kind (sign-in included).
  const crossOrigin = spec.method !== 'GET' && spec.path.startsWith('/api/admin/');
  if (spec.auth === 'admin')
    errors.not_authenticated = 'No admin session cookie, or it expired, ended or belongs to an inactive staff member.';
  const denied = [
    spec.auth === 'admin' && def.permission ? `The staff member lacks the \`${def.permission}\` permission.` : '',
    crossOrigin ? 'An `Origin` other than the service’s own (cross-origin request refused).' : '',
  ].filter(Boolean);
  if (denied.length) errors.permission_denied = denied.join(' ');
  if (spec.auth === 'internal') errors.permission_denied = 'No valid `X-Internal-Key` (or INTERNAL_SERVICE_KEY unset, or DEBUG on).';
  if (spec.throttle) errors.throttled = `Over the \`${spec.throttle}\` throttle scope; \`Retry-After\` says when to try again.`;
  errors.forbidden_origin =
    'The request did not come through the service’s public address (a direct call of the API or function URL host).';
  errors.server_error = 'An unexpected failure on the service’s side (details only in its log).';
  errors.database_busy = 'The database is unreachable or overloaded; `Retry-After` says when to try again.';
  return errors;
}

/** Every error a route can answer: implied and declared (declared texts win). */
export const routeErrors = (spec: Pick<RouteSpec, 'path' | 'method' | 'auth' | 'throttle'>, def: DocumentedRoute): ErrorDocs => ({
  ...impliedErrors(spec, def),
  ...def.errors,
});

/** Statuses whose error responses carry `Retry-After` (seconds). */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];

/**
 * A route that answers 201 with `body`: its status and its one documented response together (spread into a route
 * definition), so the two cannot disagree.
 */
export const created = (body: ZodType, description: string): { status: 201; responses: { 201: ResponseSpec } } => ({
  status: 201,
  responses: { 201: json(body, description) },
});
