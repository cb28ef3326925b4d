/**
 * The admin API's check of unsafe methods (DESIGN §9: "unsafe methods also check `Origin`"): a POST, PATCH, PUT
 * or DELETE whose `Origin` header is not the service's own origin (that of PUBLIC_BASE_URL) is 403
 * `permission_denied` ("cross-origin request refused"), before anything else runs. `Origin: null` (a sandboxed
 * or privacy-redirected page) is foreign too. A request without `Origin` passes: browsers send it on every
 * unsafe request, so its absence means a non-browser client (curl, a script), which a cookie stolen by a page
 * could not be used from anyway; the SameSite=Strict cookie is the first line, this the second. Without
 * PUBLIC_BASE_URL (a misconfiguration) every request carrying an Origin is refused.
 */
import { adminErrors } from '@mathisland/core/admin';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { header } from '../http';
import type { AppContext } from '../types';
import { depsOf } from './injectDeps';

const UNSAFE = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The origin (scheme://host[:port]) of `url`, or undefined when it is not a URL. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export const sameOrigin = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => ({
  before: async ({ event, context }) => {
    if (!UNSAFE.has(event.requestContext?.http?.method?.toUpperCase() ?? '')) return;
    const origin = header(event, 'origin');
    if (origin === undefined) return;
    const own = originOf(depsOf(context).settings.publicBaseUrl);
    if (!own || origin !== own) throw adminErrors.crossOrigin();
  },
});
