/**
 * Endpoint group `notifications` (issue 3 §8; spec "Notification": lists keyed `items`): the learner's
 * notifications newest first `{ items, nextCursor?, unreadCount }`, marking one read (returns it) or all read.
 * Kinds and when they are created: packages/core/src/notifications/index.ts and docs/api.md.
 */
import { lazySchema } from '@mathisland/core';
import { listNotifications, markAllRead, markRead, NOTIFICATION_KINDS } from '@mathisland/core/notifications';
import * as z from 'zod';
import { notificationsRoutes } from '../../../../infra/routes/notifications';
import { defineGroup } from '../lib/group';
import { route, type UserInput } from '../lib/route';
import { Id, IsoTime, page, responseShape } from '../lib/shapes';

const ListQuery = lazySchema(() =>
  z.object({
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  }),
);

type Input = UserInput<undefined, unknown>;

const Notification = responseShape(() =>
  z
    .object({
      id: Id,
      kind: z.enum(NOTIFICATION_KINDS),
      title: z.string().meta({ description: 'A short Persian text; apps may render their own from kind and data' }),
      data: z
        .object({
          nodeId: Id.optional(),
          title: z.string().optional(),
          stars: z.number().int().optional(),
          xp: z.number().int().optional(),
          days: z.number().int().optional(),
          hearts: z.number().int().optional(),
          body: z.string().optional(),
          freezeEarned: z.boolean().optional(),
          day: z.string().optional(),
          freezesLeft: z.number().int().optional(),
        })
        .meta({
          description:
            'island_completed `{ nodeId, title, stars, xp }`, streak_milestone `{ days, freezeEarned? }`, streak_frozen `{ day, freezesLeft }` (a Tehran day a streak freeze covered), heart_refilled `{ hearts }`, staff_message `{ title, body }`',
        }),
      createdAt: IsoTime,
      read: z.boolean(),
    })
    .meta({ id: 'Notification' }),
);
const unreadCount = z.number().int().min(0);

const list = ({ deps, user, query }: UserInput<undefined, z.infer<typeof ListQuery>>) => listNotifications(deps, user, query);
const readOne = ({ deps, user, id }: Input) => markRead(deps, user, id);
const readAll = ({ deps, user }: Input) => markAllRead(deps, user);

export const { handler, createHandler, routes } = defineGroup(notificationsRoutes, {
  'GET /api/notifications': route.user({
    query: ListQuery,
    description: 'Newest first; kept 90 days.',
    responses: { 200: responseShape(() => page(Notification).unwrap().extend({ unreadCount })) },
    run: list,
  }),
  'POST /api/notifications/{id}/read': route.user({
    responses: { 200: Notification },
    errors: { not_found: 'No such notification of the caller’s.' },
    run: readOne,
  }),
  'POST /api/notifications/read-all': route.user({ responses: { 200: responseShape(() => z.object({ unreadCount })) }, run: readAll }),
});
