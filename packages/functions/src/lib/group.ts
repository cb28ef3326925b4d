/**
 * Builds the Lambda handler of one endpoint group from the route manifest (`infra/routes.ts`) and the
 * group's route implementations. The pipeline, outermost first:
 *
 *   requestLog → responseHeaders → errorBody → @middy/http-router → per route:
 *   jsonBody → path id → auth → throttle → zod validation → run → JSON response
 *
 * Handlers only translate: parse, call one domain function, map the result (DESIGN §2).
 *
 * A streamed group (routes with `stream: true`, DESIGN §1) runs the same pipeline under middy's
 * `executionModeStreamifyResponse`: the handler is wrapped with `awslambda.streamifyResponse` (the Lambda Node
 * runtime's global; the local runtime installs a shim) and a route may answer with an {@link HttpResponse}
 * whose body is a `Readable`, written to the response stream as it produces data after a prelude carrying the
 * status and headers. Errors before that (validation, auth, throttle, 429, 503) are the usual JSON error
 * response; an error thrown by the body stream after the first byte fails the invocation, which cuts the
 * response (the client sees an incomplete body).
 */
import { type Deps, DomainError } from '@mathisland/core';
import { ADMIN_COOKIE, authenticateStaff, requirePermission, type Staff } from '@mathisland/core/admin/index';
import { authenticate, safeEqual } from '@mathisland/core/auth/index';
import { hit } from '@mathisland/core/throttle/index';
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { z } from 'zod';
import {
  type EndpointGroup,
  isStreamedGroup,
  routes as manifest,
  type RouteSpec,
  routeKey,
  throttleScopes,
} from '../../../../infra/routes';
import { getDeps } from './deps';
import { errorBody } from './middlewares/errorBody';
import { jsonBody } from './middlewares/jsonBody';
import { requestLog } from './middlewares/requestLog';
import { responseHeaders } from './middlewares/responseHeaders';
import { type AppContext, HttpResponse, type RouteDef, type RouteInput } from './types';

/** Declares a route implementation with its input types inferred from the schemas. */
export const route = <B = undefined, Q = Record<string, string | undefined>>(def: RouteDef<B, Q>): RouteDef<B, Q> => def;

const emptyBody = z.union([z.undefined(), z.strictObject({})]);

/** An epoch-ms time as ISO 8601 for a response, null staying null. */
export const isoTime = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Path ids are ASCII decimal (spec Curriculum); anything else, Persian digits included, is 400 `invalid_id`. */
export function parseId(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw)) {
    throw new DomainError('invalid_id', 'Ids are ASCII decimal numbers');
  }
  return Number(raw);
}

/** Zod issues → `{ field: [messages] }`; unknown keys are reported under their own names. */
export function zodFields(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    fields[key] ??= [];
    fields[key].push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), 'Unknown field');
    } else {
      add(issue.path.length ? issue.path.join('.') : '_', issue.message);
    }
  }
  return fields;
}

function validate<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new DomainError('validation_error', `The ${where} is not valid`, { fields: zodFields(result.error) });
  return result.data;
}

export const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
};

/**
 * Whether the request carries `X-Internal-Key` equal to INTERNAL_SERVICE_KEY (constant-time). Always false
 * while the key is unset: there is no default key (spec Authentication 5).
 */
export function presentsInternalKey(deps: Deps, event: APIGatewayProxyEventV2): boolean {
  const key = deps.settings.internalServiceKey;
  const given = header(event, 'x-internal-key');
  return Boolean(key && given && safeEqual(given, key));
}

/** The value of cookie `name` (API Gateway v2 puts cookies in `event.cookies`; a raw `Cookie` header also works). */
export function cookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const all = [...(event.cookies ?? []), ...(header(event, 'cookie')?.split(';') ?? [])];
  for (const entry of all) {
    const at = entry.indexOf('=');
    if (at > 0 && entry.slice(0, at).trim() === name) return decodeURIComponent(entry.slice(at + 1).trim());
  }
  return undefined;
}

/**
 * The API's public base URL as the client reached it: `X-Forwarded-Proto` (set by API Gateway; absent, so plain
 * http, on the local server) and the `Host` the request was routed by (never `X-Forwarded-Host`, which a client
 * could set). Used for links the API hands out: the pay link and the gateway callback.
 */
export function publicBaseUrl(event: APIGatewayProxyEventV2): string {
  const proto = header(event, 'x-forwarded-proto')?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  const host = header(event, 'host') ?? event.requestContext?.domainName ?? 'localhost';
  return `${proto}://${host}`;
}

/** A 302 to `location` (still JSON-free and with the API's cache headers, added by responseHeaders). */
export const redirect = (location: string): HttpResponse => new HttpResponse(302, undefined, { location });
/** Whether `body` is a Node or web readable stream (a streamed route's body). */
const isStream = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && ('_readableState' in body || body instanceof ReadableStream);

function toResponse(result: unknown, status = 200): APIGatewayProxyStructuredResultV2 {
  if (result instanceof HttpResponse && isStream(result.body)) {
    // Streamed groups only: middy's streamify mode pipes the body into the response stream.
    return { statusCode: result.statusCode, headers: result.headers, body: result.body as never };
  }
  if (result instanceof HttpResponse) {
    return {
      statusCode: result.statusCode,
      headers: result.headers,
      ...(result.cookies.length ? { cookies: result.cookies } : {}),
      body: result.body === undefined ? '' : typeof result.body === 'string' ? result.body : JSON.stringify(result.body),
    };
  }
  return { statusCode: status, body: JSON.stringify(result ?? null) };
}

function routeHandler(spec: RouteSpec, def: RouteDef<unknown, unknown>) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>()
    .use(jsonBody({ maxBytes: def.maxBodyBytes }))
    .handler(async (event, context) => {
      const deps = await getDeps();
      const clientIp = event.requestContext?.http?.sourceIp ?? 'unknown';
      const id = spec.path.includes('{id}') ? parseId(event.pathParameters?.id) : Number.NaN;
      let user: RouteInput<unknown, unknown>['user'] | undefined;
      let staff: Staff | undefined;
      if (spec.auth === 'user') {
        user = await authenticate(deps, header(event, 'authorization'));
        context.userId = user.id;
      } else if (spec.auth === 'internal') {
        if (deps.settings.debug || !presentsInternalKey(deps, event)) {
          throw new DomainError('permission_denied', 'This route needs a valid X-Internal-Key');
        }
      } else if (spec.auth === 'admin') {
        staff = await authenticateStaff(deps, cookie(event, ADMIN_COOKIE));
        context.staff = staff.username;
        if (def.permission) requirePermission(staff, def.permission);
      }
      if (spec.throttle) {
        const rule = throttleScopes[spec.throttle];
        const subject =
          rule.by === 'user' && user ? `user:${user.id}` : rule.by === 'user' && staff ? `staff:${staff.username}` : `ip:${clientIp}`;
        await hit(deps, spec.throttle, subject, rule);
      }
      const body = validate(def.body ?? emptyBody, event.body, 'request body');
      const query = def.query ? validate(def.query, event.queryStringParameters ?? {}, 'query') : (event.queryStringParameters ?? {});
      const result = await def.run({
        event,
        body,
        query,
        id,
        user: user as RouteInput<unknown, unknown>['user'],
        staff: staff as Staff,
        deps,
        clientIp,
      });
      return toResponse(result, def.status);
    });
}

export interface Group {
  group: EndpointGroup;
  /**
   * The Lambda handler. For a streamed group it is the `awslambda.streamifyResponse` handler
   * `(event, responseStream, context)`, whatever this type says.
   */
  handler: middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>;
  /** Implementations keyed by route key (`GET /api/home`), for the contract tests. */
  routes: Record<string, RouteDef<unknown, unknown>>;
}

/**
 * The handler of `group`. Errors at build time: an implementation for a route the manifest does not give
 * this group, or a manifest route of the group without an implementation.
 */
export function defineGroup(group: EndpointGroup, implementations: Record<string, RouteDef<any, any>>): Group {
  const specs = manifest.filter((r) => r.group === group);
  const missing = specs.filter((s) => !implementations[routeKey(s)]).map(routeKey);
  const extra = Object.keys(implementations).filter((k) => !specs.some((s) => routeKey(s) === k));
  if (missing.length || extra.length) {
    throw new Error(`Endpoint group ${group}: missing implementations [${missing.join(', ')}], not in the manifest [${extra.join(', ')}]`);
  }
  const router = httpRouterHandler({
    routes: specs.map((spec) => ({
      method: spec.method,
      path: spec.path,
      handler: routeHandler(spec, implementations[routeKey(spec)] as RouteDef<unknown, unknown>),
    })),
  });
  const streamed = isStreamedGroup(group);
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>(
    streamed ? { executionMode: executionModeStreamifyResponse } : {},
  )
    .use(requestLog())
    .use(responseHeaders())
    .use(errorBody())
    .handler(router as never);
  return { group, handler, routes: implementations };
}
