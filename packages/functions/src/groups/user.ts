/**
 * Endpoint group `user`: the signed-in learner's own state (issue 3): hearts, the summary, the profile, the weekly
 * report and account deletion (`{ otp }`, 204). Hearts:
 * `{ hearts, maxHearts, enforced, nextHeartAt }` with `nextHeartAt` an ISO time or null (full, or not enforced).
 */
import { deleteAccount } from '@mathisland/core/account';
import { heartsAt } from '@mathisland/core/hearts';
import { profileOf, updateProfile } from '@mathisland/core/profile';
import { summaryOf, weeklyReport } from '@mathisland/core/progress';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { HttpResponse, isoTime } from '../lib/http';
import { route, type UserInput } from '../lib/route';

const ProfileChange = z.strictObject({
  displayName: z.string().max(200).nullable().optional(),
  birthDate: z.string().max(40).nullable().optional(),
  gradeId: z.number().int().positive().optional(),
});
const DeleteAccount = z.strictObject({ otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') });

type Input = UserInput<undefined, unknown>;

async function hearts({ deps, user }: Input) {
  const { hearts, maxHearts, enforced, nextHeartAt } = heartsAt(user, deps.clock.now(), deps.settings);
  return { hearts, maxHearts, enforced, nextHeartAt: isoTime(nextHeartAt) };
}

async function summary({ deps, user }: Input) {
  const value = summaryOf(deps, user);
  return { ...value, hearts: { ...value.hearts, nextHeartAt: isoTime(value.hearts.nextHeartAt) } };
}

const profile = async ({ user }: Input) => profileOf(user);
const changeProfile = ({ deps, user, body }: UserInput<z.infer<typeof ProfileChange>, unknown>) => updateProfile(deps, user, body);
const report = ({ deps, user }: Input) => weeklyReport(deps, user.id);

async function deleteOwnAccount({ deps, user, body }: UserInput<z.infer<typeof DeleteAccount>, unknown>) {
  await deleteAccount(deps, user, body.otp);
  return new HttpResponse(204);
}

export const { handler, createHandler, routes } = defineGroup('user', {
  'GET /api/hearts': route.user({ run: hearts }),
  'GET /api/user/summary': route.user({ run: summary }),
  'GET /api/user/profile': route.user({ run: profile }),
  'PATCH /api/user/profile': route.user({ body: ProfileChange, run: changeProfile }),
  'GET /api/user/weekly-report': route.user({ run: report }),
  'POST /api/user/delete': route.user({ body: DeleteAccount, run: deleteOwnAccount }),
});
