/**
 * The route manifest: every HTTP route of the API with its endpoint group (= one Lambda), its auth kind and
 * its throttle scope (DESIGN §2, §3; spec "Endpoints").
 *
 * Read by `stacks/Api.ts` (one function per group, one API Gateway route per entry), by the local runtime
 * (which matches requests against it to build API Gateway v2 events) and by the contract tests (every
 * route has an implementation in its group's handler module and is deployed).
 *
 * Paths use API Gateway syntax (`{id}`); path ids are ASCII decimal and anything else is 400 `invalid_id`.
 */

import { adminRoutes } from './routes/admin';
import { admincatalogRoutes } from './routes/admincatalog';
import { adminexportRoutes } from './routes/adminexport';
import { adminsalesRoutes } from './routes/adminsales';
import { adminsupportRoutes } from './routes/adminsupport';
import { admintoolsRoutes } from './routes/admintools';
import { aiRoutes } from './routes/ai';
import { authRoutes } from './routes/auth';
import { billingRoutes } from './routes/billing';
import { curriculumRoutes } from './routes/curriculum';
import { docsRoutes } from './routes/docs';
import { healthRoutes } from './routes/health';
import { leaderboardRoutes } from './routes/leaderboard';
import { learningRoutes } from './routes/learning';
import { marketplaceRoutes } from './routes/marketplace';
import { notificationsRoutes } from './routes/notifications';
import { paymentRoutes } from './routes/payment';
import { ragRoutes } from './routes/rag';
import { supportRoutes } from './routes/support';
import { tutorRoutes } from './routes/tutor';
import type { EndpointGroup, RouteSpec } from './routes/types';
import { endpointGroups, hasStreamedRoutes } from './routes/types';
import { userRoutes } from './routes/user';

export { type ScopeRule, type ThrottleScope, throttleScopes } from './routes/throttleScopes';
export { type AuthKind, type EndpointGroup, endpointGroups, type HttpMethod, type RouteSpec, routeKey } from './routes/types';

/** Every route, endpoint group by endpoint group (each group's routes in `infra/routes/<group>.ts`). */
export const routes: readonly RouteSpec[] = [
  ...healthRoutes,
  ...authRoutes,
  ...curriculumRoutes,
  ...learningRoutes,
  ...userRoutes,
  ...leaderboardRoutes,
  ...notificationsRoutes,
  ...supportRoutes,
  ...billingRoutes,
  ...paymentRoutes,
  ...marketplaceRoutes,
  ...adminRoutes,
  ...adminsalesRoutes,
  ...admincatalogRoutes,
  ...adminsupportRoutes,
  ...tutorRoutes,
  ...aiRoutes,
  ...ragRoutes,
  ...docsRoutes,
  ...admintoolsRoutes,
  ...adminexportRoutes,
];

/**
 * The regular expression matching request paths of a manifest path: `{name}` captures one segment as the
 * named group `name`, other characters match literally, one trailing slash is allowed.
 */
export const routePattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^/}]+)\}/g, '(?<$1>[^/]+)')}/?$`);

/**
 * The catch-all: API Gateway's `$default` route goes to the `fallback` group, which answers 404 `not_found`
 * or 405 `method_not_allowed` in the service's error body instead of API Gateway's own.
 */
export const fallbackGroup: EndpointGroup = 'fallback';

/**
 * The endpoint groups whose routes are streamed (`stream: true`): deployed as streaming function URLs by
 * `stacks/Tutor.ts`, left out of API Gateway by `stacks/Api.ts`, and served through the `streamifyResponse`
 * shim by the local runtime.
 */
export const streamedGroups: readonly EndpointGroup[] = endpointGroups.filter((g) =>
  hasStreamedRoutes(routes.filter((r) => r.group === g)),
);

/** Whether `group` is a streamed group (see {@link streamedGroups}). */
export const isStreamedGroup = (group: EndpointGroup): boolean => streamedGroups.includes(group);
