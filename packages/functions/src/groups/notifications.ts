/**
 * Endpoint group `notifications` (issue 3 §8; spec "Notification": lists keyed `items`): the learner's
 * notifications newest first `{ items, nextCursor?, unreadCount }`, marking one read (returns it) or all read.
 * Kinds and when they are created: packages/core/src/notifications/index.ts and docs/api.md.
 */
import { listNotifications, markAllRead, markRead } from '@mathisland/core/notifications/index';
import { z } from 'zod';
import { defineGroup, route } from '../lib/group';

export const { handler, routes } = defineGroup('notifications', {
  'GET /api/notifications': route({
    query: z.object({
      cursor: z.string().max(200).optional(),
      limit: z.coerce.number().int().min(1).max(50).default(20),
    }),
    run: ({ deps, user, query }) => listNotifications(deps, user, query),
  }),
  'POST /api/notifications/{id}/read': route({ run: ({ deps, user, id }) => markRead(deps, user, id) }),
  'POST /api/notifications/read-all': route({ run: ({ deps, user }) => markAllRead(deps, user) }),
});
