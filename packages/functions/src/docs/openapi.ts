/**
 * The OpenAPI 3.1 document of the service (DESIGN §10), generated with zod-openapi from the route manifest
 * (`infra/routes.ts`: method, path, auth, throttle scope, summary) and each route's definition in its endpoint group
 * (`route.ts`: body and query schemas, `responses`, `errors`, description, examples), so it cannot drift from what the
 * service validates and answers.
 *
 * Never imported by an endpoint group: it needs every group's definitions. It runs at build time (`scripts/openapi.ts`,
 * called by `stacks/Api.ts` for the `docs` function) and in the local runtime (`packages/local/src/apiDocs.ts`).
 *
 * Errors: throws when a definition names an error code `lib/errors.ts` has no status for. A route may document a body
 * of its own at an error status (health's 503); the status's error codes are then documented beside it (anyOf).
 */
import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { endpointGroups, routes as manifest, type RouteSpec, routeKey, throttleScopes } from '../../../../infra/routes';
import { bareCode, RETRY_AFTER_STATUSES, type ResponseSpec, responseSpec, routeErrors, statusOfDocumented } from '../lib/responses';
import type { RouteDef } from '../lib/route';
import { ErrorBody } from '../lib/shapes';
import { API_INTRO, GROUP_TAGS, SECURITY_SCHEMES } from './intro';

/** A documented method + path, e.g. `{ method: 'GET', path: '/api/home' }` (paths in the manifest's `{name}` syntax). */
export interface MethodPath {
  method: string;
  path: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The operations of an OpenAPI document as method + path pairs (upper-case methods), sorted. */
export function pathsOf(document: { paths?: object }): MethodPath[] {
  return Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)
    .flatMap(([path, item]) => METHODS.filter((m) => item[m] !== undefined).map((m) => ({ method: m.toUpperCase(), path })))
    .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

const SECURITY: Record<RouteSpec['auth'], Record<string, string[]>[]> = {
  none: [],
  user: [{ bearerAuth: [] }],
  admin: [{ adminSession: [] }],
  internal: [{ internalKey: [] }],
};

const RetryAfter = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({ description: 'Seconds to wait before trying again' });

/** `GET /api/tickets/{id}` → `getApiTicketsId`. */
const operationId = (spec: RouteSpec): string =>
  spec.method.toLowerCase() +
  spec.path
    .split(/[/{}-]/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');

const contentTypes = (spec: ResponseSpec): readonly string[] =>
  spec.contentType === undefined ? ['application/json'] : typeof spec.contentType === 'string' ? [spec.contentType] : spec.contentType;

/** The response headers of a documented success response as a zod object zod-openapi renders. */
function headersOf(spec: ResponseSpec): z.ZodObject | undefined {
  if (!spec.headers) return undefined;
  const shape: Record<string, z.ZodType> = {};
  for (const [name, header] of Object.entries(spec.headers)) {
    const schema = header.schema.meta({ description: header.description });
    shape[name] = header.required === false ? schema.optional() : schema;
  }
  return z.object(shape);
}

function successResponse(spec: ResponseSpec, errors: ZodOpenApiResponseObject | undefined): ZodOpenApiResponseObject {
  const headers = headersOf(spec);
  const content = spec.body
    ? Object.fromEntries(
        contentTypes(spec).map((type) => [
          type,
          {
            schema: errors ? z.union([spec.body as z.ZodType, ErrorBody]) : spec.body,
            ...(spec.examples || errors ? { examples: { ...spec.examples, ...errors?.content?.['application/json']?.examples } } : {}),
          },
        ]),
      )
    : undefined;
  const description = spec.streamed ? `${spec.description} (streamed as it is written)` : spec.description;
  return {
    description: errors ? `${description}; or an error: ${errors.description}` : description,
    ...(headers ? { headers } : {}),
    ...(content ? { content } : {}),
  };
}

/** The error responses of a route, one per status, each listing its codes with when they are answered. */
function errorResponses(errors: Record<string, string>): Map<number, ZodOpenApiResponseObject> {
  const byStatus = new Map<number, [string, string][]>();
  for (const [code, when] of Object.entries(errors)) {
    const status = statusOfDocumented(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, when]]);
  }
  const responses = new Map<number, ZodOpenApiResponseObject>();
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples = Object.fromEntries(
      codes.map(([code, when]) => [code.replace('/', '_'), { summary: when, value: { code: bareCode(code), detail: when } }]),
    );
    responses.set(status, {
      description: codes.map(([code, when]) => `\`${bareCode(code)}\`: ${when}`).join(' '),
      ...(RETRY_AFTER_STATUSES.includes(status) ? { headers: z.object({ 'Retry-After': RetryAfter }) } : {}),
      content: { 'application/json': { schema: ErrorBody, examples } },
    });
  }
  return responses;
}

/** The path parameters of `path`: `{id}` an ASCII decimal id, any other a URL-encoded string. */
function pathParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  if (!names.length) return undefined;
  const shape: Record<string, z.ZodType> = {};
  for (const name of names) {
    shape[name] =
      name === 'id'
        ? z
            .string()
            .regex(/^[0-9]{1,15}$/)
            .meta({ description: 'ASCII decimal id (other digits: 400 invalid_id)', example: '12' })
        : z
            .string()
            .min(1)
            .meta({ description: `The ${name}, URL-encoded` });
  }
  return z.object(shape);
}

function describe(spec: RouteSpec, def: RouteDef): string {
  const lines = [def.description ?? ''];
  const who = {
    none: 'No sign-in.',
    user: 'A signed-in learner: `Authorization: Bearer <accessToken>`.',
    admin: `A staff member's admin session cookie${def.auth === 'admin' && def.permission ? ` holding \`${def.permission}\`` : ''}.`,
    internal: 'Service to service: header `X-Internal-Key`.',
  }[spec.auth];
  lines.push(`**Auth:** ${who}`);
  if (spec.throttle) {
    const rule = throttleScopes[spec.throttle];
    const by = { ip: 'client IP', user: 'caller' }[rule.by];
    lines.push(`**Throttle:** scope \`${spec.throttle}\`, ${rule.limit} per ${rule.windowSeconds / 3600} h per ${by}.`);
  }
  if (def.maxBodyBytes) lines.push(`**Body:** at most ${def.maxBodyBytes} bytes.`);
  return lines.filter(Boolean).join('\n\n');
}

/** The operation of one route. */
function operation(spec: RouteSpec, def: RouteDef): ZodOpenApiOperationObject {
  const errors = errorResponses(routeErrors(spec, def));
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, doc] of Object.entries(def.responses)) {
    responses[status] = successResponse(responseSpec(doc, Number(status)), errors.get(Number(status)));
  }
  for (const [status, response] of errors) responses[String(status)] ??= response;
  const path = pathParams(spec.path);
  const query = def.query instanceof z.ZodObject ? def.query : undefined;
  const header = def.headers;
  const bodyRequired = def.body ? !def.body.safeParse(undefined).success : false;
  return {
    operationId: operationId(spec),
    tags: [spec.group],
    summary: spec.summary,
    description: describe(spec, def),
    security: SECURITY[spec.auth],
    ...(path || query || header
      ? { requestParams: { ...(path ? { path } : {}), ...(query ? { query } : {}), ...(header ? { header } : {}) } }
      : {}),
    ...(def.body
      ? {
          requestBody: {
            required: bodyRequired,
            content: { 'application/json': { schema: def.body, ...(def.bodyExamples ? { examples: def.bodyExamples } : {}) } },
          },
        }
      : {}),
    responses: responses as ZodOpenApiOperationObject['responses'],
  };
}

/** The generated document (an OpenAPI 3.1 object). */
export type ApiDocument = ReturnType<typeof createDocument>;

/**
 * The document for `definitions` (every endpoint group's `routes`, merged; keyed by route key). Throws when a manifest
 * route has no definition (or a definition no manifest route), so the document lists exactly `infra/routes.ts`.
 */
export function createApiDocument(definitions: Record<string, RouteDef>, options: { version?: string } = {}): ApiDocument {
  const missing = manifest.map(routeKey).filter((key) => !definitions[key]);
  const extra = Object.keys(definitions).filter((key) => !manifest.some((r) => routeKey(r) === key));
  if (missing.length || extra.length)
    throw new Error(`route definitions: missing [${missing.join(', ')}], not in the manifest [${extra.join(', ')}]`);
  const paths: ZodOpenApiPathsObject = {};
  for (const spec of manifest) {
    paths[spec.path] ??= {};
    const item = paths[spec.path] as Record<string, ZodOpenApiOperationObject>;
    item[spec.method.toLowerCase()] = operation(spec, definitions[routeKey(spec)] as RouteDef);
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'mathisland API', version: options.version ?? '1.0.0', description: API_INTRO },
    servers: [{ url: '/', description: 'This service (PUBLIC_BASE_URL)' }],
    tags: endpointGroups.filter((g) => manifest.some((r) => r.group === g)).map((g) => ({ name: g, description: GROUP_TAGS[g] })),
    paths,
    components: { securitySchemes: SECURITY_SCHEMES, schemas: { Error: ErrorBody } },
  });
}
