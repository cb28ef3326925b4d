/** The routes of endpoint group `leaderboard` (`packages/functions/src/groups/leaderboard.ts`). */
import type { RouteSpec } from './types';

export const leaderboardRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/leaderboard',
    group: 'leaderboard',
    auth: 'user',
    throttle: 'leaderboard',
    summary: 'Weekly or overall ranking by XP with the caller’s own rank (cached 60 s).',
  },
];
