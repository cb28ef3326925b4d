/** The routes of endpoint group `health` (`packages/functions/src/groups/health.ts`). */
import type { RouteSpec } from './types';

export const healthRoutes: readonly RouteSpec[] = [
  { method: 'GET', path: '/api/health', group: 'health', auth: 'none', summary: 'Liveness; details with a correct X-Internal-Key.' },
];
