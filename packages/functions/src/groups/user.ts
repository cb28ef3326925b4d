/**
 * Endpoint group `user`: the signed-in learner's own state (issue 3): hearts, the summary, the profile, the weekly
 * report and account deletion (`{ otp }`, 204). Hearts:
 * `{ hearts, maxHearts, enforced, nextHeartAt }` with `nextHeartAt` an ISO time or null (full, or not enforced).
 */

import { deleteAccount } from '@mathisland/core/account/index';
import { profileOf, updateProfile } from '@mathisland/core/profile/index';
import { heartsAt } from '@mathisland/core/progress/index';
import { weeklyReport } from '@mathisland/core/progress/report';
import { summaryOf } from '@mathisland/core/progress/summary';
import { z } from 'zod';
import { defineGroup, isoTime, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

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
  'GET /api/user/profile': route({ run: async ({ user }) => profileOf(user) }),
  'PATCH /api/user/profile': route({
    body: z.strictObject({
      displayName: z.string().max(200).nullable().optional(),
      birthDate: z.string().max(40).nullable().optional(),
      gradeId: z.number().int().positive().optional(),
    }),
    run: ({ deps, user, body }) => updateProfile(deps, user, body),
  }),
  'GET /api/user/weekly-report': route({ run: ({ deps, user }) => weeklyReport(deps, user.id) }),
  'POST /api/user/delete': route({
    body: z.strictObject({ otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') }),
    async run({ deps, user, body }) {
      await deleteAccount(deps, user, body.otp);
      return new HttpResponse(204);
    },
  }),
});
