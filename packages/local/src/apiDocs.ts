/**
 * The OpenAPI document from the route definitions of every endpoint group (DESIGN §10), outside Lambda: for the
 * local runtime (which serves it at `/api/schema/`), for `scripts/openapi.ts` (the build, `stacks/Api.ts`) and for the
 * contract tests ({@link openApiPaths}).
 *
 * Importing a group module builds its handler; the tutor's needs the `awslambda` global, so the local streaming
 * shim is installed first.
 */

import type { Deps } from '@mathisland/core';
import { type EndpointGroup, endpointGroups } from '../../../infra/routes';
import { serveDocumentFrom } from '../../functions/src/groups/docs';
import type { RouteDef } from '../../functions/src/lib/route';
import { type ApiDocument, createApiDocument, type MethodPath, pathsOf } from '../../functions/src/openapi/document';
import { installAwsLambdaShim } from './awslambda';
import { createResponseChecker, withResponseCheck } from './responseCheck';
import { loadHandlers, matchRoute } from './server';

/** Every group's route definitions, keyed by group, then by route key (`GET /api/home`). */
export async function loadRouteDefinitions(): Promise<Record<EndpointGroup, Record<string, RouteDef>>> {
  installAwsLambdaShim();
  const entries = await Promise.all(
    endpointGroups.map(async (group) => {
      const mod = (await import(`../../functions/src/groups/${group}.ts`)) as { routes: Record<string, RouteDef> };
      return [group, mod.routes] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<EndpointGroup, Record<string, RouteDef>>;
}

let cached: Promise<ApiDocument> | undefined;

/** The document (generated once per process; the definitions do not change while it runs). */
export function apiDocument(): Promise<ApiDocument> {
  cached ??= loadRouteDefinitions().then((groups) => createApiDocument(Object.assign({}, ...Object.values(groups))));
  return cached;
}

/**
 * The operations of the OpenAPI document as method + path pairs, sorted (`{ method: 'GET', path: '/api/home' }`,
 * paths in the manifest's `{name}` syntax): the contract tests compare them with `infra/routes.ts`, the handlers and
 * the synthesized API Gateway routes.
 */
export async function openApiPaths(): Promise<MethodPath[]> {
  return pathsOf(await apiDocument());
}

/**
 * Every group's handler on `getDeps`, the `docs` group serving the document generated from the loaded route
 * definitions, and with `check` every answer checked against that document.
 */
export async function apiHandlers(getDeps: () => Promise<Deps>, check: boolean) {
  const handlers = await loadHandlers(getDeps);
  serveDocumentFrom(async () => JSON.stringify(await apiDocument()));
  if (!check) return { handlers, responseMismatches: [] };
  const [document, groups] = await Promise.all([apiDocument(), loadRouteDefinitions()]);
  const checker = createResponseChecker(document, Object.assign({}, ...Object.values(groups)));
  const routeOf = (event: { rawPath: string; requestContext: { http: { method: string } } }) =>
    matchRoute(event.requestContext.http.method, event.rawPath)?.routeKey ?? '$default';
  return { handlers: withResponseCheck(handlers, checker, routeOf), responseMismatches: checker.mismatches };
}
