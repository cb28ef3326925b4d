/**
 * What the middlewares' own unit tests (`middlewares/*.test.ts`) share: a middy request for one API Gateway v2
 * event, with the fake dependencies on its context, and running one phase of one middleware on it. Tests only.
 */
import type { Deps } from '@mathisland/core';
import { fakeDeps } from '@mathisland/core/testing';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AppContext } from './types';

export type TestRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>;
type Middleware = middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>;

/**
 * A request as API Gateway v2 hands it to a group's Lambda: `method` and `path` (default `GET /api/test`), lower-case
 * or mixed-case `headers`, a raw `body`; `deps` on the context unless `deps: null` (default: {@link fakeDeps} with
 * `env`).
 */
export function testRequest(
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    isBase64Encoded?: boolean;
    pathParameters?: Record<string, string>;
    query?: Record<string, string>;
    cookies?: string[];
    deps?: Deps | null;
    env?: Record<string, string>;
    context?: Partial<AppContext>;
  } = {},
): TestRequest {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/api/test';
  const event = {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: options.headers ?? {},
    ...(options.cookies ? { cookies: options.cookies } : {}),
    ...(options.query ? { queryStringParameters: options.query } : {}),
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext: { http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' } },
  } as unknown as APIGatewayProxyEventV2;
  const deps = options.deps === undefined ? fakeDeps({ env: options.env }) : (options.deps ?? undefined);
  const context = { ...(deps ? { deps } : {}), ...options.context } as AppContext;
  return { event, context, response: null, error: null, internal: {} } as unknown as TestRequest;
}

/** Runs one phase of `middleware` on `request` (a missing phase does nothing), resolving to the request. */
export async function runPhase(middleware: Middleware, request: TestRequest, phase: 'before' | 'after' | 'onError' = 'before') {
  await middleware[phase]?.(request);
  return request;
}
