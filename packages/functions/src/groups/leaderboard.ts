/**
 * Endpoint group `leaderboard`: `GET /api/leaderboard?period=weekly|overall&limit=1..100` (default weekly,
 * 50), a live ranking by XP cached 60 s, with the caller's own rank even outside the top (issue 3 §3;
 * DESIGN §3). Its own Lambda, so its 60-second cache is shared by every reader that reaches one instance.
 */
import { leaderboard, TOP_SIZE } from '@mathisland/core/leaderboard';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { route, type UserInput } from '../lib/route';

const BoardQuery = z.object({
  period: z.enum(['weekly', 'overall']).default('weekly'),
  limit: z.coerce.number().int().min(1).max(TOP_SIZE).default(50),
});

const ranking = ({ deps, user, query }: UserInput<undefined, z.infer<typeof BoardQuery>>) =>
  leaderboard(deps, user, query.period, query.limit);

export const { handler, createHandler, routes } = defineGroup('leaderboard', {
  'GET /api/leaderboard': route.user({ query: BoardQuery, run: ranking }),
});
