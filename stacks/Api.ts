/**
 * Api: the HTTP API (API Gateway HTTP API) with one Lambda per endpoint group (DESIGN §1, §2).
 *
 * Generated from `infra/routes.ts`: one `Function` per entry of `endpointGroups`
 * (`packages/functions/src/groups/<group>.handler`), one route per entry of `routes` (route key
 * `routeKey(r)`) pointing at its group's function, and `$default` pointing at the `fallbackGroup` function,
 * which answers unknown paths and methods in the service's JSON error body. Streamed groups and their routes
 * (`stream: true`, the tutor) are left out: API Gateway HTTP APIs do not stream, so `stacks/Tutor.ts` deploys
 * them as Lambda function URLs in RESPONSE_STREAM mode.
 *
 * Every function is a service function (stacks/service.ts): TABLE_NAME, STAGE, SECRETS_ID, PUBLIC_BASE_URL when
 * known and the plain settings set at deploy time (never a secret); an IAM policy that is exactly its group's
 * declaration in `infra/permissions.ts`; its own log group with a 5xx metric filter.
 *
 * The stage throttles every route (default route settings: API_THROTTLE_RATE requests per second, bursts of
 * API_THROTTLE_BURST), on top of the service's own per-route throttle scopes. CORS allows the one public origin
 * only (the browser clients are served from it; other origins get no CORS headers), or no origin at all while
 * that origin is unknown.
 */
import { type ApiProps, Api as SstApi, type StackContext } from 'sst/constructs';
import { functionMemoryMb, nodejsProps } from '../infra/functions';
import { endpointGroups, fallbackGroup, isStreamedGroup, routeKey, routes } from '../infra/routes';
import { docsFunctionFiles } from './apiDocs';
import { deployConfig } from './config';
import { groupFunctionId, serviceFunction } from './service';

// Where other stacks and tests found them before stacks/service.ts.
export { deployedSettings, groupFunctionId, passThroughSettings } from './service';

/** The API's CORS: the one public origin, or none while it is unknown. */
export function apiCors(publicBaseUrl: string | undefined): ApiProps['cors'] {
  if (!publicBaseUrl) return false;
  return {
    allowOrigins: [publicBaseUrl],
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
    exposeHeaders: ['retry-after', 'idempotent-replayed'],
    allowCredentials: true,
    maxAge: '1 hour',
  };
}

export function Api(context: StackContext) {
  const { stack, app } = context;
  const config = deployConfig(app.stage);

  const functions = Object.fromEntries(
    endpointGroups
      .filter((group) => !isStreamedGroup(group))
      .map((group) => {
        const fn = serviceFunction(context, groupFunctionId(group), group, {
          handler: `packages/functions/src/groups/${group}.handler`,
          description: `mathisland endpoint group ${group}`,
          // Sized from the peak RSS under load (infra/functions.ts, docs/performance.md "Load").
          memorySize: functionMemoryMb[group],
          // The model groups' openai SDK in a file of its own, loaded at the first model call (infra/functions.ts).
          nodejs: nodejsProps(group),
          // The API description's files lie next to its handler instead of in its bundle (stacks/apiDocs.ts).
          ...(group === 'docs' ? docsFunctionFiles() : {}),
        });
        return [group, fn];
      }),
  ) as Record<(typeof endpointGroups)[number], ReturnType<typeof serviceFunction>>;

  const api = new SstApi(stack, 'Http', {
    cors: apiCors(config.publicBaseUrl),
    defaults: { throttle: { rate: config.apiThrottle.rate, burst: config.apiThrottle.burst } },
    routes: {
      ...Object.fromEntries(routes.filter((r) => !r.stream).map((r) => [routeKey(r), functions[r.group]])),
      $default: functions[fallbackGroup],
    },
  });

  stack.addOutputs({ ApiEndpoint: api.url });
  return { api, functions };
}
