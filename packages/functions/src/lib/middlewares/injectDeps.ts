/**
 * Puts the worker's dependencies on `context.deps` before anything else runs. `getDeps` is the wiring of the
 * caller: the production one (built once per cold start, `../deps.ts`) or the local runtime's own per stack,
 * so two stacks in one process never share dependencies and nothing is patched into a global.
 */
import type { Deps } from '@mathisland/core';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AppContext } from '../types';

export const injectDeps = (
  getDeps: () => Promise<Deps>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => ({
  before: async (request) => {
    request.context.deps = await getDeps();
  },
});

/** The dependencies `injectDeps` installed. Errors: a plain Error when the pipeline was built without it (a wiring bug). */
export function depsOf(context: AppContext): Deps {
  if (!context.deps) throw new Error('injectDeps must run before this middleware');
  return context.deps;
}
