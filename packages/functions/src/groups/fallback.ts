/**
 * Endpoint group `fallback`: API Gateway's `$default` route. Answers 405 `method_not_allowed` (with `Allow`)
 * when the path exists under other methods, otherwise 404 `not_found`, in the service's error body. It needs
 * no dependencies, so it has no `createHandler`: the local runtime uses `handler` as it is.
 */
import { DomainError } from '@mathisland/core';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { routes as manifest, routePattern } from '../../../../infra/routes';
import { toErrorResponse } from '../lib/errors';
import { errorBody } from '../lib/middlewares/errorBody';
import { requestLog } from '../lib/middlewares/requestLog';
import { responseHeaders } from '../lib/middlewares/responseHeaders';
import type { RouteDef } from '../lib/route';
import type { AppContext } from '../lib/types';

const patterns = manifest.map((r) => ({
  method: r.method,
  regex: routePattern(r.path),
}));

/** Methods the manifest allows on `path` (empty when the path is unknown). */
export function allowedMethods(path: string): string[] {
  return [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))];
}

export const routes: Record<string, RouteDef> = {};

async function notFound(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const allowed = allowedMethods(event.rawPath);
  if (allowed.length > 0) {
    const response = toErrorResponse(
      new DomainError('method_not_allowed', `${event.requestContext.http.method} is not allowed here; use ${allowed.join(', ')}`),
    );
    return { ...response, headers: { ...response.headers, allow: allowed.join(', ') } };
  }
  throw new DomainError('not_found', 'No such route');
}

export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>()
  .use(requestLog())
  .use(responseHeaders())
  .use(errorBody())
  .handler(notFound);
