/**
 * Builds the Lambda handler of one endpoint group from the route manifest (`infra/routes.ts`) and the group's
 * route definitions (`route.ts`). The pipeline, outermost first, one middleware per file in `middlewares/`:
 *
 *   logContext → requestLog → responseHeaders → errorBody → injectDeps → originCheck → @middy/http-router → per route:
 *   sameOrigin (admin routes) → jsonBody → pathId → authenticate → throttle(s) → validateInput → the route's
 *   handler → JSON response
 *
 * (each route's throttle hit is counted in one place, `throttlePlan.ts`: the middleware, the user item as
 * authenticate loads it, or the route's own transaction.)
 *
 * Handlers only translate: read typed input, call one domain function, map the result (DESIGN §2).
 *
 * A streamed group (routes with `stream: true`, DESIGN §1) runs the same pipeline under middy's
 * `executionModeStreamifyResponse`, which it hands `defineGroup` (`streaming.ts`, so that no buffered group loads
 * it): the handler is wrapped with `awslambda.streamifyResponse` (the Lambda Node
 * runtime's global; the local runtime installs a streaming shim; anywhere else, such as SST's local worker under
 * `sst dev`, `responseStream.ts` installs a stand-in that buffers the response) and a route may answer with an
 * {@link HttpResponse} whose body is a `Readable`, written to the response stream as it produces data after a
 * prelude carrying the status and headers. Errors before that (validation, auth, throttle, 429, 503) are the usual
 * JSON error response; an error thrown by the body stream after the first byte fails the invocation, which cuts the
 * response (the client sees an incomplete body).
 */
import { type Adapters, type Deps, withDeadline } from '@mathisland/core';
import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod';
import { type EndpointGroup, hasStreamedRoutes, type RouteSpec, routeKey } from '../../../../infra/routes/types';
import { productionDeps } from './deps';
import { HttpResponse } from './http';
import { authenticate } from './middlewares/authenticate';
import { errorBody } from './middlewares/errorBody';
import { depsOf, injectDeps } from './middlewares/injectDeps';
import { jsonBody } from './middlewares/jsonBody';
import { logContext } from './middlewares/logContext';
import { originCheck } from './middlewares/originCheck';
import { pathId } from './middlewares/pathId';
import { requestLog } from './middlewares/requestLog';
import { responseHeaders } from './middlewares/responseHeaders';
import { sameOrigin } from './middlewares/sameOrigin';
import { throttle } from './middlewares/throttle';
import { validateInput } from './middlewares/validateInput';
import type { RouteDef } from './route';
import type { Streaming } from './streaming';
import { throttlePlan } from './throttlePlan';
import type { AppContext } from './types';
import { UNKNOWN_VIEWER } from './viewer';

export type GroupHandler = middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>;

/** API Gateway's integration timeout (30 s) less a margin for the answer to travel back, ms. */
export const API_GATEWAY_BUDGET_MS = 28_000;
/** Time kept back from the Lambda's own remaining time, so the error answer is written before it ends, ms. */
const LAMBDA_MARGIN_MS = 1_000;

/**
 * The time budget of one invocation (DESIGN §11): 28 s under API Gateway's 30 s, or less when the Lambda's own
 * timeout leaves less; every outbound call gives up at this deadline (`@mathisland/core` withDeadline).
 */
export const invocationBudgetMs = (context: { getRemainingTimeInMillis?: () => number }): number => {
  const lambdaLeft = context.getRemainingTimeInMillis?.();
  return Math.max(0, Math.min(API_GATEWAY_BUDGET_MS, lambdaLeft === undefined ? Number.POSITIVE_INFINITY : lambdaLeft - LAMBDA_MARGIN_MS));
};

/**
 * Runs `handler` under the invocation's deadline. Only buffered groups (behind API Gateway): the streamed tutor
 * is a function URL, whose calls keep their own timeouts (docs/decisions.md "Time budgets").
 */
function underDeadline(handler: GroupHandler): GroupHandler {
  const run = (event: APIGatewayProxyEventV2, context: AppContext) =>
    withDeadline(invocationBudgetMs(context), () => handler(event, context));
  return Object.assign(run, handler) as GroupHandler;
}

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

const NO_QUERY = z.strictObject({});

/**
 * Options of every middy instance of a group (the group's and each route's). No early timeout (`timeoutEarlyInMillis:
 * 0`): the invocation's deadline ({@link underDeadline}) already stops every outbound call a second before the
 * Lambda's end, and middy's own would arm and clear a timer and race a promise on each of the two pipelines of every
 * request for nothing.
 */
const PIPELINE_OPTIONS = { timeoutEarlyInMillis: 0 } as const;

/** The per-route part of the pipeline. */
function routeHandler(spec: RouteSpec, def: RouteDef) {
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>(PIPELINE_OPTIONS);
  // The admin API is the one cookie-authenticated API: its unsafe methods must come from the service's own origin.
  if (spec.path.startsWith('/api/admin/')) handler.use(sameOrigin());
  handler.use(jsonBody({ maxBytes: def.maxBodyBytes }));
  if (spec.path.includes('{id}')) handler.use(pathId());
  // The one place the route's throttle hit is counted (throttlePlan.ts).
  const plan = throttlePlan(spec, def);
  handler.use(
    authenticate({
      kind: spec.auth,
      ...(def.auth === 'admin' && def.permission ? { permission: def.permission } : {}),
      ...(plan.at === 'user item' ? { countOnUser: plan.scope } : {}),
    }),
  );
  if (plan.at === 'middleware' || plan.at === 'transaction')
    handler.use(throttle({ scope: plan.scope, inTransaction: plan.at === 'transaction' }));
  // The admin API refuses any query parameter a route does not name (docs/admin-api.md), writes included.
  const query = def.query ?? (spec.path.startsWith('/api/admin/') ? NO_QUERY : undefined);
  return handler.use(validateInput({ body: def.body, query })).handler(async (event, context) => {
    const input = {
      event,
      body: context.body,
      query: context.query,
      id: context.pathId ?? Number.NaN,
      // A route counting its throttle hit in its own transaction gets it on a per-request copy (deps.throttle).
      deps: context.throttleTicket ? { ...depsOf(context), throttle: context.throttleTicket } : depsOf(context),
      clientIp: (context.viewer ?? UNKNOWN_VIEWER).ip,
      viewer: context.viewer ?? UNKNOWN_VIEWER,
    };
    // `authenticate` guarantees the caller of the route's kind is there.
    const result =
      def.auth === 'user'
        ? await def.run({ ...input, user: context.user! })
        : def.auth === 'admin'
          ? await def.run({ ...input, staff: context.staff! })
          : await def.run(input);
    return toResponse(result, def.status);
  });
}

export interface Group {
  group: EndpointGroup;
  /** The Lambda handler (production wiring). For a streamed group it is the `awslambda.streamifyResponse` handler. */
  handler: GroupHandler;
  /** The same pipeline on other dependencies: the local runtime's per stack. */
  createHandler(getDeps: () => Promise<Deps>): GroupHandler;
  /** Definitions keyed by route key (`GET /api/home`), for the contract tests. */
  routes: Record<string, RouteDef>;
}

/**
 * The endpoint group whose manifest entries are `specs` (its own `infra/routes/<group>.ts`, not the whole manifest:
 * a group's bundle carries only its own routes). `adapters` are the heavy provider factories its routes need (only
 * tutor and rag wire the model). Errors at build time: routes of more than one group, a definition for a route the
 * manifest does not give this group, a manifest route of the group without one, a definition whose auth kind
 * differs from the manifest's, or a group with streamed routes without `streaming` (streaming.ts) or one without
 * them with it.
 */
export function defineGroup(
  specs: readonly RouteSpec[],
  definitions: Record<string, RouteDef>,
  options: { adapters?: Adapters; streaming?: Streaming } = {},
): Group {
  const group = specs[0]?.group as EndpointGroup;
  if (!group || specs.some((s) => s.group !== group))
    throw new Error(`defineGroup: routes of one endpoint group expected, got ${specs.map(routeKey).join(', ')}`);
  const streaming = options.streaming;
  if (hasStreamedRoutes(specs) !== (streaming !== undefined)) {
    throw new Error(`Endpoint group ${group}: streamed routes need defineGroup's streaming option (lib/streaming.ts), and only they`);
  }
  const missing = specs.filter((s) => !definitions[routeKey(s)]).map(routeKey);
  const extra = Object.keys(definitions).filter((k) => !specs.some((s) => routeKey(s) === k));
  const wrongAuth = specs.filter((s) => definitions[routeKey(s)] && definitions[routeKey(s)]?.auth !== s.auth).map(routeKey);
  if (missing.length || extra.length || wrongAuth.length) {
    throw new Error(
      `Endpoint group ${group}: missing definitions [${missing.join(', ')}], not in the manifest [${extra.join(', ')}], ` +
        `auth kind differs from the manifest [${wrongAuth.join(', ')}]`,
    );
  }
  const createHandler = (getDeps: () => Promise<Deps>): GroupHandler => {
    const router = httpRouterHandler({
      routes: specs.map((spec) => ({
        method: spec.method,
        path: spec.path,
        handler: routeHandler(spec, definitions[routeKey(spec)] as RouteDef),
      })),
    });
    // middy wraps a streamed handler with `awslambda.streamifyResponse` right here: where no runtime defined it
    // (SST's local worker under `sst dev`), a stand-in that answers the whole response at once (responseStream.ts).
    streaming?.installStandIn();
    const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>(
      streaming ? { ...PIPELINE_OPTIONS, executionMode: streaming.executionMode } : PIPELINE_OPTIONS,
    )
      .use(logContext({ responseHeader: true }))
      .use(requestLog())
      .use(responseHeaders())
      .use(errorBody())
      .use(injectDeps(getDeps))
      .use(originCheck())
      .handler(router as never);
    return streaming ? handler : underDeadline(handler);
  };
  return { group, handler: createHandler(productionDeps(options.adapters)), createHandler, routes: definitions };
}
