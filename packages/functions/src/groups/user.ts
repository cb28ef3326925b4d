/**
 * Endpoint group `user`: the signed-in learner's own state (issue 3): hearts and the summary. Hearts:
 * `{ hearts, maxHearts, enforced, nextHeartAt }` with `nextHeartAt` an ISO time or null (full, or not enforced).
 */
import { heartsAt } from '@mathisland/core/progress/index';
import { summaryOf } from '@mathisland/core/progress/summary';
import { defineGroup, isoTime, route } from '../lib/group';

export const { handler, routes } = defineGroup('user', {
  'GET /api/hearts': route({
    run: async ({ deps, user }) => {
      const { hearts, maxHearts, enforced, nextHeartAt } = heartsAt(user, deps.clock.now(), deps.settings);
      return { hearts, maxHearts, enforced, nextHeartAt: isoTime(nextHeartAt) };
    },
  }),
  'GET /api/user/summary': route({
    run: async ({ deps, user }) => {
      const summary = summaryOf(deps, user);
      return { ...summary, hearts: { ...summary.hearts, nextHeartAt: isoTime(summary.hearts.nextHeartAt) } };
    },
  }),
});
