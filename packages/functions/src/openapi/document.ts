/**
 * The OpenAPI 3.1 document of the service (DESIGN §10), generated with zod-openapi from the route manifest
 * (`infra/routes.ts`) and each route's definition in its endpoint group (`lib/route.ts`), so it cannot drift from what
 * the service validates and answers. Everything that builds it is in this folder:
 *
 * - `document.ts` (here): the document, its components, and {@link pathsOf} for the contract tests;
 * - `operation.ts`: one route's operation; `errorResponses.ts`: the error answers, shared ones as components;
 * - `examples.ts`: an example on every JSON success body; `intro.ts`: the prose, tags and security schemes.
 *
 * Shared shapes are components (`$ref`): the schemas given an id in `lib/shapes.ts` and the groups, the error
 * responses and examples two or more operations answer alike, the `{id}` path parameter and the `Retry-After` header.
 *
 * Never imported by an endpoint group: it needs every group's definitions. The local runtime loads them and calls it
 * (`packages/local/src/apiDocs.ts`: served at `/api/schema/`, and written by `npm run openapi` for the `docs`
 * function's bundle, `stacks/apiDocs.ts`).
 *
 * Errors: throws when a definition names an error code `lib/errors.ts` has no status for, or when the definitions and
 * the manifest differ.
 */
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { endpointGroups, routes as manifest, routeKey } from '../../../../infra/routes';
import type { RouteDef } from '../lib/route';
import { ErrorBody } from '../lib/shapes';
import { errorResponses } from './errorResponses';
import { withSuccessExamples } from './examples';
import { API_INTRO, GROUP_TAGS, SECURITY_SCHEMES } from './intro';
import { operation } from './operation';

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
  const routes = manifest.map((spec) => [spec, definitions[routeKey(spec)] as RouteDef] as const);
  const errorsOf = errorResponses(routes);
  const paths: ZodOpenApiPathsObject = {};
  for (const [spec, def] of routes) {
    paths[spec.path] ??= {};
    const item = paths[spec.path] as Record<string, ZodOpenApiOperationObject>;
    item[spec.method.toLowerCase()] = operation(spec, def, errorsOf(spec, def));
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: { title: 'mathisland API', version: options.version ?? '1.0.0', description: API_INTRO },
    servers: [{ url: '/', description: 'This service (PUBLIC_BASE_URL)' }],
    tags: endpointGroups.filter((g) => manifest.some((r) => r.group === g)).map((g) => ({ name: g, description: GROUP_TAGS[g] })),
    paths,
    components: { securitySchemes: SECURITY_SCHEMES, schemas: { Error: ErrorBody } },
  });
  return withSuccessExamples(document);
}
