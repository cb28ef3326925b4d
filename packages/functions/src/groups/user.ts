/**
 * Endpoint group `user`: the signed-in learner's own state (issue 3): hearts, the summary, the profile, the weekly
 * report and account deletion (`{ otp }`, 204); the parent's weekly SMS report (DESIGN §13): the number confirmed
 * with a code, and the stop link the parent opens without signing in. Hearts:
 * `{ hearts, maxHearts, enforced, nextHeartAt }` with `nextHeartAt` an ISO time or null (full, or not enforced).
 */
import { lazySchema } from '@mathisland/core';
import { deleteAccount } from '@mathisland/core/account';
import { heartsAt } from '@mathisland/core/hearts';
import { confirmParent, parentOf, removeParent, requestParentCode, stopByLink } from '@mathisland/core/parents';
import { profileOf, updateProfile } from '@mathisland/core/profile';
import { summaryOf, weeklyReport } from '@mathisland/core/progress';
import * as z from 'zod';
import { userRoutes } from '../../../../infra/routes/user';
import { defineGroup } from '../lib/group';
import { HttpResponse, isoTime } from '../lib/http';
import { json, noContent } from '../lib/responses';
import { type RouteInput, route, type UserInput } from '../lib/route';
import { Day, Hearts, Id, IsoTime, responseShape, StreakWithFreezes } from '../lib/shapes';

const ProfileChange = lazySchema(() =>
  z.strictObject({
    displayName: z.string().max(200).nullable().optional(),
    birthDate: z.string().max(40).nullable().optional(),
    gradeId: z.number().int().positive().optional(),
  }),
);
const DeleteAccount = lazySchema(() => z.strictObject({ otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') }));
/** The parent's number as sent (no normalization, as sign-in's phone): optional `+` and 7 to 15 ASCII digits. */
const ParentPhone = lazySchema(() =>
  z.strictObject({
    phone: z.string().regex(/^\+?[0-9]{7,15}$/, 'phone must be 7 to 15 ASCII digits, optionally starting with +'),
  }),
);
const ParentCode = lazySchema(() =>
  z.strictObject({ code: z.string().regex(/^[0-9]{4,8}$/, 'code must be the digits the parent received') }),
);
const StopQuery = lazySchema(() => z.strictObject({ token: z.string().min(1).max(64) }));

type Input = UserInput<undefined, unknown>;

const count = z.number().int().min(0);
const Summary = responseShape(() =>
  z.object({
    publicId: z.string(),
    displayName: z.string().nullable(),
    xp: count,
    stars: count,
    streak: StreakWithFreezes,
    hearts: Hearts,
    completedIslands: count,
    completedLessons: count,
    activePlan: z.string().nullable().meta({ description: 'The active plan’s title; null without one' }),
  }),
);
const Profile = responseShape(() =>
  z
    .object({
      publicId: z.string(),
      phone: z.string(),
      displayName: z.string().nullable(),
      birthDate: z.string().nullable().meta({ description: 'Jalali YYYY/MM/DD, ASCII digits' }),
      birthYear: z.number().int().nullable(),
      gradeId: Id.nullable(),
    })
    .meta({ id: 'Profile' }),
);
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
const WeeklyReport = responseShape(() =>
  z.object({
    current: period.meta({ description: 'The 7 Tehran days ending today' }),
    previous: period.meta({ description: 'The 7 days before' }),
    days: z.array(
      z.object({ day: Day, minutes: count, questions: count, correct: count, islands: count, lessons: count, assistantQuestions: count }),
    ),
    minutesMethod: z.string(),
  }),
);

const time = IsoTime.nullable();
const Parent = responseShape(() =>
  z
    .object({
      status: z
        .enum(['none', 'active', 'stopped'])
        .meta({ description: '`active`: reports go to `phone`; `stopped`: the parent stopped them' }),
      phone: z.string().nullable().meta({ description: 'The confirmed number' }),
      pendingPhone: z.string().nullable().meta({ description: 'A number waiting for its code' }),
      verifiedAt: time,
      stoppedAt: time,
      lastReport: z.object({ week: Day, at: IsoTime, status: z.enum(['sent', 'uncertain', 'failed']) }).nullable(),
      nextReportAt: time.meta({ description: 'Friday 18:00 Tehran of the week whose report is due next, while active' }),
    })
    .meta({ id: 'ParentReport', description: 'The parent’s weekly SMS report (DESIGN §13)' }),
);

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

const parent = ({ deps, user }: Input) => parentOf(deps, user);
const askParentCode = ({ deps, user, body }: UserInput<z.infer<typeof ParentPhone>, unknown>) => requestParentCode(deps, user, body.phone);
const verifyParent = ({ deps, user, body }: UserInput<z.infer<typeof ParentCode>, unknown>) => confirmParent(deps, user, body.code);

async function dropParent({ deps, user }: Input) {
  await removeParent(deps, user);
  return new HttpResponse(204);
}

async function stopReports({ deps, query }: RouteInput<undefined, z.infer<typeof StopQuery>>) {
  await stopByLink(deps, query.token);
  return { stopped: true, message: 'گزارش هفتگی جزیره ریاضی دیگر به این شماره فرستاده نمی‌شود.' };
}

export const { handler, createHandler, routes } = defineGroup(userRoutes, {
  'GET /api/hearts': route.user({ responses: { 200: Hearts }, run: hearts }),
  'GET /api/user/summary': route.user({ responses: { 200: Summary }, run: summary }),
  'GET /api/user/profile': route.user({ responses: { 200: Profile }, run: profile }),
  'PATCH /api/user/profile': route.user({
    body: ProfileChange,
    description:
      '`birthDate` is Jalali `YYYY/MM/DD` (also `-`, Persian or Arabic-Indic digits), age 5 to 99; null clears it. ' +
      'A `gradeId` that is not a grade of the curriculum is 400 `validation_error` with `fields.gradeId`.',
    responses: { 200: json(Profile, 'The changed profile') },
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
  'GET /api/user/parent': route.user({ responses: { 200: Parent }, run: parent }),
  'POST /api/user/parent': route.user({
    body: ParentPhone,
    bodyExamples: { parent: { summary: 'A parent’s number', value: { phone: '09121112233' } } },
    description:
      'Texts the number a 6-digit code (the sign-in code’s rules: one a minute per number, 5 minutes, 5 wrong guesses); nothing else goes to a number before it is confirmed. ' +
      'Reports keep going to a confirmed number until the new one is confirmed. The confirmed number sent again needs no code.',
    responses: { 200: json(Parent, 'The code is on its way: `pendingPhone`') },
    errors: {
      sms_unavailable: 'The sms provider failed, or parent reports are off (no sms key or report template).',
      throttled: 'A code went to this number less than a minute ago (Retry-After).',
    },
    run: askParentCode,
  }),
  'POST /api/user/parent/verify': route.user({
    body: ParentCode,
    bodyExamples: { parent: { summary: 'The code the parent read out', value: { code: '123456' } } },
    description: 'Confirms the pending number; its first report is this Tehran week’s (Friday 18:00).',
    responses: { 200: json(Parent, 'Confirmed: `status` active') },
    errors: {
      otp_invalid: 'The code is wrong, expired, used, or its 5 tries are spent.',
      parent_not_pending: 'No number waits for its code.',
    },
    run: verifyParent,
  }),
  'DELETE /api/user/parent': route.user({
    responses: { 204: noContent('No more reports (a pending code is void)') },
    run: dropParent,
  }),
  'GET /api/parent/stop': route.public({
    query: StopQuery,
    description: 'The link at the end of each weekly SMS (`?token=` signed for that learner and number). Stopping again answers the same.',
    responses: {
      200: json(
        responseShape(() =>
          z.object({ stopped: z.literal(true), message: z.string().meta({ description: 'For the parent, in Persian' }) }),
        ),
        'Stopped',
      ),
    },
    errors: { not_found: 'The token is not valid, or reports no longer go to its number.' },
    run: stopReports,
  }),
});
