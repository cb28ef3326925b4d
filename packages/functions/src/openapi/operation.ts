/**
 * One operation of the OpenAPI document: a route of the manifest (`infra/routes.ts`: method, path, auth, throttle
 * scope, summary) with its definition (`lib/route.ts`: body and query schemas, `responses`, description, examples)
 * and its error responses (`errorResponses.ts`).
 */
import * as z from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { type RouteSpec, throttleScopes } from '../../../../infra/routes';
import { type ResponseSpec, responseSpec } from '../lib/responses';
import type { RouteDef } from '../lib/route';
import { ErrorBody } from '../lib/shapes';

const SECURITY: Record<RouteSpec['auth'], Record<string, string[]>[]> = {
  none: [],
  user: [{ bearerAuth: [] }],
  admin: [{ adminSession: [] }],
  internal: [{ internalKey: [] }],
};

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

/** A success response; `errors` is the route's error response at the same status (health's 503), shown beside it. */
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

/** The `{id}` of every path that has one: one component parameter. */
const PathId = z
  .string()
  .regex(/^[0-9]{1,15}$/)
  .meta({ description: 'ASCII decimal id (other digits: 400 invalid_id)', example: '12', param: { id: 'id' } });

/** The path parameters of `path`: `{id}` an ASCII decimal id, any other a URL-encoded string. */
function pathParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  if (!names.length) return undefined;
  const shape: Record<string, z.ZodType> = {};
  for (const name of names) {
    shape[name] =
      name === 'id'
        ? PathId
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

/** The operation of route `spec` defined by `def`, answering `errors` (its error responses by status). */
export function operation(spec: RouteSpec, def: RouteDef, errors: Map<number, ZodOpenApiResponseObject>): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, doc] of Object.entries(def.responses)) {
    responses[status] = successResponse(responseSpec(doc, Number(status)), errors.get(Number(status)));
  }
  for (const [status, response] of errors) responses[String(status)] ??= response;
  const path = pathParams(spec.path);
  // A list's query is built at its first use (lazySchema): the document reads the built object.
  const built = def.query instanceof z.ZodLazy ? def.query.unwrap() : def.query;
  const query = built instanceof z.ZodObject ? built : undefined;
  const header = def.headers;
  const bodyRequired = def.body ? !def.body.safeParse(undefined).success : false;
  return {
    operationId: operationId(spec),
    tags: [spec.group],
    summary: spec.summary,
    description: describe(spec, def),
    security: SECURITY[spec.auth],
    // The permission as data (the staff panel's build reads it: packages/admin/scripts/generate.ts).
    ...(def.auth === 'admin' && def.permission ? { 'x-permission': def.permission } : {}),
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
