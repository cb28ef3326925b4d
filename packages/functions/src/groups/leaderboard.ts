/**
 * Endpoint group `leaderboard`: `GET /api/leaderboard?period=weekly|overall&limit=1..100` (default weekly,
 * 50), a live ranking by XP cached 60 s, with the caller's own rank even outside the top (issue 3 §3;
 * DESIGN §3). Its own Lambda, so its 60-second cache is shared by every reader that reaches one instance.
 */
import { leaderboard, TOP_SIZE } from '@mathisland/core/leaderboard/index';
import { z } from 'zod';
import { defineGroup, route } from '../lib/group';

export const { handler, routes } = defineGroup('leaderboard', {
  'GET /api/leaderboard': route({
    query: z.object({
      period: z.enum(['weekly', 'overall']).default('weekly'),
      limit: z.coerce.number().int().min(1).max(TOP_SIZE).default(50),
    }),
    run: ({ deps, user, query }) => leaderboard(deps, user, query.period, query.limit),
  }),
});
