/**
 * Endpoint group `leaderboard`: `GET /api/leaderboard?period=weekly|overall&limit=1..100` (default weekly,
 * 50), a live ranking by XP cached 60 s, with the caller's own rank even outside the top (issue 3 §3;
 * DESIGN §3). Its own Lambda, so its 60-second cache is shared by every reader that reaches one instance.
 */
import { lazySchema } from '@mathisland/core';
import { leaderboard, TOP_SIZE } from '@mathisland/core/leaderboard';
import * as z from 'zod';
import { leaderboardRoutes } from '../../../../infra/routes/leaderboard';
import { defineGroup } from '../lib/group';
import { route, type UserInput } from '../lib/route';
import { Day, IsoTime, responseShape } from '../lib/shapes';

const BoardQuery = lazySchema(() =>
  z.object({
    period: z.enum(['weekly', 'overall']).default('weekly'),
    limit: z.coerce.number().int().min(1).max(TOP_SIZE).default(50),
  }),
);

const xp = z.number().int().min(0);
const Entry = responseShape(() => z.object({ rank: z.number().int().positive(), publicId: z.string(), name: z.string(), xp }));
const Board = responseShape(() =>
  z.object({
    period: z.enum(['weekly', 'overall']),
    weekStart: Day.nullable().meta({ description: 'The Saturday (Tehran) the weekly board began; null for overall' }),
    items: z.array(Entry),
    me: Entry.unwrap().extend({ rank: z.number().int().positive().nullable().meta({ description: 'null without XP in the period' }) }),
    computedAt: IsoTime.meta({ description: 'When the cached top list was read (cached 60 s)' }),
  }),
);

const ranking = ({ deps, user, query }: UserInput<undefined, z.infer<typeof BoardQuery>>) =>
  leaderboard(deps, user, query.period, query.limit);

export const { handler, createHandler, routes } = defineGroup(leaderboardRoutes, {
  'GET /api/leaderboard': route.user({
    query: BoardQuery,
    description: 'Rank order: XP descending, then who reached it first. `name` is the display name or the publicId.',
    responses: { 200: Board },
    run: ranking,
  }),
});
