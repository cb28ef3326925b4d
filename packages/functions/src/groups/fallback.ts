/**
 * Endpoint group `fallback`: API Gateway's `$default` route. Answers 405 `method_not_allowed` (with `Allow`)
 * when the path exists under other methods, otherwise 404 `not_found`, in the service's error body. Like every
 * function it first refuses a request that did not come through the edge (403 `forbidden_origin`, `originCheck`),
 * for which it reads only the settings of its dependencies.
 */
import { type Deps, DomainError } from '@mathisland/core';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { routes as manifest, routePattern } from '../../../../infra/routes';
import { productionDeps } from '../lib/deps';
import { toErrorResponse } from '../lib/errors';
import { errorBody } from '../lib/middlewares/errorBody';
import { injectDeps } from '../lib/middlewares/injectDeps';
import { originCheck } from '../lib/middlewares/originCheck';
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

/** The fallback's pipeline on `getDeps` (the local runtime's per stack, or the production wiring). */
export const createHandler = (getDeps: () => Promise<Deps>) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>()
    .use(requestLog())
    .use(responseHeaders())
    .use(errorBody())
    .use(injectDeps(getDeps))
    .use(originCheck())
    .handler(notFound);

export const handler = createHandler(productionDeps());
