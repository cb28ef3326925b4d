/**
 * The error answers of the OpenAPI document, declared once each (issue 27: the document was 508 kB because every
 * operation repeated the same error responses inline). A route's errors are the codes its kind implies and those it
 * declares (`lib/responses.ts` routeErrors), one response per status listing each code with when it is answered, the
 * body `Error` and, for 429 and 503, the `Retry-After` header.
 *
 * An error response that two or more operations answer alike (same status, same codes, same texts: e.g. the 500
 * `server_error` every route has) becomes one component of `components/responses` that they reference; an example of
 * one code with one text that two or more responses show becomes one of `components/examples`. What only one route
 * answers stays inline. Component names: `<status>-<codes>` for responses, `<code>` for examples, with a digest of the
 * texts after it when the same codes are shared with other texts (permission_denied names each route's permission).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { ZodOpenApiExampleObject, ZodOpenApiResponseObject } from 'zod-openapi';
import type { RouteSpec } from '../../../../infra/routes';
import { bareCode, RETRY_AFTER_STATUSES, routeErrors, statusOfDocumented } from '../lib/responses';
import type { RouteDef } from '../lib/route';
import { ErrorBody } from '../lib/shapes';

const RetryAfter = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({ description: 'Seconds to wait before trying again', header: { id: 'RetryAfter' } });

/** One status's codes of one route, in declaration order: `[code (or code/reason), when]`. */
type Codes = [string, string][];

/** The codes of every error status a route answers, by status (ascending). */
function byStatus(spec: RouteSpec, def: RouteDef): Map<number, Codes> {
  const statuses = new Map<number, Codes>();
  for (const [code, when] of Object.entries(routeErrors(spec, def))) {
    const status = statusOfDocumented(code);
    statuses.set(status, [...(statuses.get(status) ?? []), [code, when]]);
  }
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

/**
 * Counts of equal things (by `key`), and a component name for each one counted twice or more: its `base` name, or, when
 * other shared things have the same base (the same codes with other texts), the base and a digest of its key. So a
 * name does not depend on the order of the routes, and stays while the thing it names stays the same.
 */
class Shared<T> {
  private readonly counts = new Map<string, number>();
  private readonly bases = new Map<string, Set<string>>();
  private readonly made = new Map<string, T>();

  count(key: string, base: string): void {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n === 2) this.bases.set(base, (this.bases.get(base) ?? new Set()).add(key));
  }

  /** The one object made for `key` (by `make`), given its component name when `key` was counted twice or more. */
  get(key: string, base: string, make: (id: string | undefined) => T): T {
    const known = this.made.get(key);
    if (known) return known;
    const shared = (this.counts.get(key) ?? 0) > 1;
    const alike = this.bases.get(base)?.size ?? 0;
    const id = !shared ? undefined : alike > 1 ? `${base}-${createHash('sha256').update(key).digest('hex').slice(0, 6)}` : base;
    const made = make(id);
    this.made.set(key, made);
    return made;
  }
}

const safeName = (code: string) => code.replace(/[^A-Za-z0-9_.-]/g, '_');

/**
 * The error responses of every route of `routes` (the manifest's routes with their definitions), shared ones as
 * components (see the module doc): call it once per document, then ask it for each route's responses by status.
 * Errors: a plain Error for a code `lib/errors.ts` has no status for.
 */
export function errorResponses(
  routes: readonly (readonly [RouteSpec, RouteDef])[],
): (spec: RouteSpec, def: RouteDef) => Map<number, ZodOpenApiResponseObject> {
  const responses = new Shared<ZodOpenApiResponseObject>();
  const examples = new Shared<ZodOpenApiExampleObject>();
  const exampleKey = ([code, when]: [string, string]) => JSON.stringify([code, when]);
  const responseKey = (status: number, codes: Codes) => JSON.stringify([status, codes]);
  const responseName = (status: number, codes: Codes) => `${status}-${codes.map(([code]) => safeName(code)).join('-')}`;
  for (const [spec, def] of routes) {
    for (const [status, codes] of byStatus(spec, def)) {
      responses.count(responseKey(status, codes), responseName(status, codes));
      for (const pair of codes) examples.count(exampleKey(pair), safeName(pair[0]));
    }
  }
  const example = (pair: [string, string]): ZodOpenApiExampleObject =>
    examples.get(exampleKey(pair), safeName(pair[0]), (id) => ({
      ...(id ? { id } : {}),
      summary: pair[1],
      value: { code: bareCode(pair[0]), detail: pair[1] },
    }));
  const response = (status: number, codes: Codes): ZodOpenApiResponseObject =>
    responses.get(responseKey(status, codes), responseName(status, codes), (id) => ({
      ...(id ? { id } : {}),
      description: codes.map(([code, when]) => `\`${bareCode(code)}\`: ${when}`).join(' '),
      ...(RETRY_AFTER_STATUSES.includes(status) ? { headers: z.object({ 'Retry-After': RetryAfter }) } : {}),
      content: {
        'application/json': { schema: ErrorBody, examples: Object.fromEntries(codes.map((pair) => [safeName(pair[0]), example(pair)])) },
      },
    }));
  return (spec, def) => new Map([...byStatus(spec, def)].map(([status, codes]) => [status, response(status, codes)]));
}
