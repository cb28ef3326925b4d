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
import { json, noContent } from '../lib/responses';
import { route, type UserInput } from '../lib/route';
import { Day, Hearts, Id } from '../lib/shapes';

const ProfileChange = z.strictObject({
  displayName: z.string().max(200).nullable().optional(),
  birthDate: z.string().max(40).nullable().optional(),
  gradeId: z.number().int().positive().optional(),
});
const DeleteAccount = z.strictObject({ otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') });

type Input = UserInput<undefined, unknown>;

const count = z.number().int().min(0);
const Summary = z.object({
  publicId: z.string(),
  displayName: z.string().nullable(),
  xp: count,
  stars: count,
  streak: z.object({ current: count, longest: count, today: z.boolean().meta({ description: 'Active today (Tehran)' }) }),
  hearts: Hearts,
  completedIslands: count,
  completedLessons: count,
  activePlan: z.string().nullable().meta({ description: 'The active plan’s title; null without one' }),
});
const Profile = z
  .object({
    publicId: z.string(),
    phone: z.string(),
    displayName: z.string().nullable(),
    birthDate: z.string().nullable().meta({ description: 'Jalali YYYY/MM/DD, ASCII digits' }),
    birthYear: z.number().int().nullable(),
    gradeId: Id.nullable(),
  })
  .meta({ id: 'Profile' });
const period = z.object({
  from: Day,
  to: Day,
  minutes: count,
  questions: count,
  correct: count,
  accuracy: z.number().min(0).max(100).nullable().meta({ description: 'Percent; null without answers' }),
  islands: count,
  lessons: count,
  assistantQuestions: count,
  activeDays: count,
});
const WeeklyReport = z.object({
  current: period.meta({ description: 'The 7 Tehran days ending today' }),
  previous: period.meta({ description: 'The 7 days before' }),
  days: z.array(
    z.object({ day: Day, minutes: count, questions: count, correct: count, islands: count, lessons: count, assistantQuestions: count }),
  ),
  minutesMethod: z.string(),
});

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
  'GET /api/hearts': route.user({ responses: { 200: Hearts }, run: hearts }),
  'GET /api/user/summary': route.user({ responses: { 200: Summary }, run: summary }),
  'GET /api/user/profile': route.user({ responses: { 200: Profile }, run: profile }),
  'PATCH /api/user/profile': route.user({
    body: ProfileChange,
    description: '`birthDate` is Jalali `YYYY/MM/DD` (also `-`, Persian or Arabic-Indic digits), age 5 to 99; null clears it.',
    responses: { 200: json(Profile, 'The changed profile') },
    errors: { not_found: 'No such grade.' },
    run: changeProfile,
  }),
  'GET /api/user/weekly-report': route.user({ responses: { 200: WeeklyReport }, run: report }),
  'POST /api/user/delete': route.user({
    body: DeleteAccount,
    description: 'Needs a fresh code from POST /api/auth/otp/request. Payment records are kept.',
    responses: { 204: noContent('The account is deleted') },
    errors: { otp_invalid: 'The code is wrong or expired.', permission_denied: 'A demo account (FIXED_OTP_LOGINS) cannot be deleted.' },
    run: deleteOwnAccount,
  }),
});
