/**
 * The shapes of the route manifest (`infra/routes.ts`): a route's method, auth kind, endpoint group and spec.
 */
import type { ThrottleScope } from './throttleScopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call a route.
 * - `none`: anyone.
 * - `user`: `Authorization: Bearer <accessToken>` of a live session.
 * - `internal`: header `X-Internal-Key` equal to INTERNAL_SERVICE_KEY (closed when unset or in debug mode).
 * - `admin`: an admin (staff) session cookie; routes needing a permission declare it in their implementation.
 */
export type AuthKind = 'none' | 'user' | 'internal' | 'admin';

/**
 * Endpoint groups; each is `packages/functions/src/groups/<group>.ts` exporting `handler` and `routes`.
 * A group whose routes are `stream: true` (the tutor) is deployed as a Lambda function URL in RESPONSE_STREAM
 * mode (`stacks/Tutor.ts`) instead of behind API Gateway; see {@link streamedGroups}.
 */
export const endpointGroups = [
  'health',
  'auth',
  'curriculum',
  'learning',
  'user',
  'fallback',
  'leaderboard',
  'notifications',
  'support',
  'billing',
  'payment',
  'marketplace',
  'admin',
  'adminsales',
  'admincatalog',
  'adminsupport',
  'tutor',
  'ai',
  'rag',
  'docs',
  'admintools',
  'adminexport',
] as const;
export type EndpointGroup = (typeof endpointGroups)[number];

export interface RouteSpec {
  method: HttpMethod;
  path: string;
  group: EndpointGroup;
  auth: AuthKind;
  throttle?: ThrottleScope;
  /**
   * The response is streamed (`text/plain; charset=utf-8`, written as it is produced). Such a route's group is
   * deployed as a Lambda function URL in RESPONSE_STREAM mode, not behind API Gateway (DESIGN §1), and its
   * handler is wrapped with `awslambda.streamifyResponse`. Every route of a streamed group must be streamed.
   */
  stream?: true;
  /** One line for the API reference. */
  summary: string;
}

/** Whether routes `specs` (one group's) make a streamed group: any of them is `stream: true` (see RouteSpec.stream). */
export const hasStreamedRoutes = (specs: readonly RouteSpec[]): boolean => specs.some((s) => s.stream);

/** API Gateway's route key of a route, e.g. `GET /api/home`. */
export const routeKey = (r: Pick<RouteSpec, 'method' | 'path'>): string => `${r.method} ${r.path}`;
