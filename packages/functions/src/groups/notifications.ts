/**
 * Endpoint group `notifications` (issue 3 §8; spec "Notification": lists keyed `items`): the learner's
 * notifications newest first `{ items, nextCursor?, unreadCount }`, marking one read (returns it) or all read.
 * Kinds and when they are created: packages/core/src/notifications/index.ts and docs/api.md.
 */
import { listNotifications, markAllRead, markRead } from '@mathisland/core/notifications';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { route, type UserInput } from '../lib/route';

const ListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

type Input = UserInput<undefined, unknown>;

const list = ({ deps, user, query }: UserInput<undefined, z.infer<typeof ListQuery>>) => listNotifications(deps, user, query);
const readOne = ({ deps, user, id }: Input) => markRead(deps, user, id);
const readAll = ({ deps, user }: Input) => markAllRead(deps, user);

export const { handler, createHandler, routes } = defineGroup('notifications', {
  'GET /api/notifications': route.user({ query: ListQuery, run: list }),
  'POST /api/notifications/{id}/read': route.user({ run: readOne }),
  'POST /api/notifications/read-all': route.user({ run: readAll }),
});
