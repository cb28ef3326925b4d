/**
 * Reading an API Gateway v2 request and shaping a non-JSON or non-200 answer; no domain here.
 */
import type { Deps } from '@mathisland/core';
import { safeEqual } from '@mathisland/core/auth';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A non-200 or non-JSON answer of a route; `cookies` are Set-Cookie values (API Gateway v2 `cookies`). */
export class HttpResponse {
  constructor(
    readonly statusCode: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    readonly cookies: string[] = [],
  ) {}
}

/** A 302 to `location` (the API's cache headers are still added by responseHeaders). */
export const redirect = (location: string): HttpResponse => new HttpResponse(302, undefined, { location });

/** The value of request header `name`, any case. */
export const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
};

const decode = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined; // a malformed percent escape is no cookie at all, never a 500
  }
};

/** The value of cookie `name` (API Gateway v2 puts cookies in `event.cookies`; a raw `Cookie` header also works). */
export function cookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const all = [...(event.cookies ?? []), ...(header(event, 'cookie')?.split(';') ?? [])];
  for (const entry of all) {
    const at = entry.indexOf('=');
    if (at > 0 && entry.slice(0, at).trim() === name) return decode(entry.slice(at + 1).trim());
  }
  return undefined;
}

/**
 * Whether the request carries `X-Internal-Key` equal to INTERNAL_SERVICE_KEY (constant-time). Always false
 * while the key is unset: there is no default key (spec Authentication 5).
 */
export function presentsInternalKey(deps: Deps, event: APIGatewayProxyEventV2): boolean {
  const key = deps.settings.internalServiceKey;
  const given = header(event, 'x-internal-key');
  return Boolean(key && given && safeEqual(given, key));
}

/** An epoch-ms time as ISO 8601 for a response, null staying null. */
export const isoTime = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();
