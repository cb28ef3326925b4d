import { lazySchema } from '@mathisland/core';
import {
  ADMIN_COOKIE,
  changeOwnPassword,
  continueStaffSession,
  createStaff,
  deleteStaff,
  endStaffSessions,
  getStaff,
  listStaff,
  type Staff,
  StaffPermission,
  signOutEverywhere,
  staffIdentity,
  staffLogin,
  staffLogout,
  updateStaff,
} from '@mathisland/core/admin';
import { listLearnerSessions, listOtpRecords, revokeLearnerSession } from '@mathisland/core/auth';
import { dashboard } from '@mathisland/core/stats';
import * as z from 'zod';
import { adminRoutes } from '../../../../infra/routes/admin';
import { sessionCookie, sessionCookieHeader } from '../lib/adminCookie';
import { otpFilters, SEARCHED, sessionsFilters, staffFilters, wholeRows } from '../lib/adminLists';
import { listAnswer, listQuery, pathParam, wholeList } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { cookie, HttpResponse, isoTime } from '../lib/http';
import { created, json, noContent } from '../lib/responses';
import { type AdminInput, type RouteInput, route } from '../lib/route';
import { adminPage, Day, Id, IsoTime, responseShape, StaffIdentity, Toman } from '../lib/shapes';

/** A staff account for superusers (`id` = username; never the password or its hash). */
const staffView = (staff: Staff) => ({
  id: staff.username,
  username: staff.username,
  isSuperuser: staff.isSuperuser,
  permissions: staff.permissions,
  active: staff.active,
  createdAt: isoTime(staff.createdAt),
  updatedAt: isoTime(staff.updatedAt),
});

const Credentials = lazySchema(() => z.strictObject({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) }));
const OwnPassword = lazySchema(() =>
  z.strictObject({
    oldPassword: z.string().min(1).max(256),
    newPassword: z.string().min(10, 'at least 10 characters').max(256),
  }),
);
const Password = z.string().min(10, 'at least 10 characters').max(256);
const NewStaff = lazySchema(() =>
  z.strictObject({
    username: z.string().min(3).max(64),
    password: Password,
    isSuperuser: z.boolean().default(false),
    permissions: z.array(StaffPermission).max(50).default([]),
    active: z.boolean().default(true),
  }),
);
const StaffChanges = lazySchema(() =>
  z.strictObject({
    password: Password.optional(),
    isSuperuser: z.boolean().optional(),
    permissions: z.array(StaffPermission).max(50).optional(),
    active: z.boolean().optional(),
  }),
);
const StaffQuery = listQuery(staffFilters);
const SessionsQuery = listQuery(sessionsFilters);
const OtpQuery = listQuery(otpFilters);
const NoQuery = z.strictObject({});

const StaffView = responseShape(() =>
  z
    .object({
      id: z.string().meta({ description: 'The username' }),
      username: z.string(),
      isSuperuser: z.boolean(),
      permissions: z.array(z.string()),
      active: z.boolean(),
      createdAt: IsoTime.nullable(),
      updatedAt: IsoTime.nullable(),
    })
    .meta({ id: 'StaffAccount' }),
);
const count = z.number().int().min(0);
const Dashboard = responseShape(() =>
  z.object({ day: Day, signIns: count, newUsers: count, orders: count, paidOrders: count, revenue: Toman }),
);
const LearnerSession = responseShape(() =>
  z.object({ id: z.string(), userId: Id, userPublicId: z.string(), createdAt: IsoTime, expiresAt: IsoTime }),
);
const OtpRecord = responseShape(() =>
  z.object({
    id: z.string(),
    phone: z.string(),
    attempts: count,
    codeSent: z.boolean(),
    sentAt: IsoTime.nullable(),
    expiresAt: IsoTime.nullable(),
    state: z.enum(['live', 'dead', 'expired']),
  }),
);
const staffNotFound = { not_found: 'No such staff account.' };

async function signIn({ deps, body, viewer }: RouteInput<z.infer<typeof Credentials>, unknown>) {
  const { token, staff, maxAgeSeconds } = await staffLogin(deps, body.username, body.password, viewer.throttleKey);
  return new HttpResponse(200, staffIdentity(staff), {}, [sessionCookie(deps, token, maxAgeSeconds)]);
}

async function signOut({ deps, event }: RouteInput<undefined, unknown>) {
  await staffLogout(deps, cookie(event, ADMIN_COOKIE));
  return new HttpResponse(204, undefined, {}, [sessionCookie(deps, '', 0)]);
}

const me = async ({ staff }: AdminInput<undefined, unknown>) => staffIdentity(staff);
const today = async ({ deps }: AdminInput<undefined, unknown>) => dashboard(deps);

const staffList = async ({ deps, query }: AdminInput<undefined, z.infer<typeof StaffQuery>>) =>
  wholeList(wholeRows((await listStaff(deps.db)).map(staffView), query, SEARCHED.staff), query);
const staffRead = async ({ deps, event }: AdminInput<undefined, unknown>) =>
  staffView(await getStaff(deps.db, pathParam(event, 'username')));
const staffCreate = async ({ deps, body, staff }: AdminInput<z.infer<typeof NewStaff>, unknown>) =>
  staffView(await createStaff(deps.db, deps.clock, body, staff.username));
async function staffUpdate({ deps, body, event, staff }: AdminInput<z.infer<typeof StaffChanges>, unknown>) {
  const changed = staffView(await updateStaff(deps.db, deps.clock, pathParam(event, 'username'), body, staff.username));
  // A new password ended every session of the account: one's own change keeps this browser signed in.
  if (body.password === undefined || changed.username !== staff.username) return changed;
  const { token, maxAgeSeconds } = await continueStaffSession(deps, staff.username);
  return new HttpResponse(200, changed, {}, [sessionCookie(deps, token, maxAgeSeconds)]);
}
async function staffEndSessions({ deps, event, staff }: AdminInput<undefined, unknown>) {
  await endStaffSessions(deps.db, deps.clock, pathParam(event, 'username'), staff.username);
  return new HttpResponse(204);
}
async function endOwnSessions({ deps, staff }: AdminInput<undefined, unknown>) {
  await signOutEverywhere(deps.db, deps.clock, staff.username);
  return new HttpResponse(204, undefined, {}, [sessionCookie(deps, '', 0)]);
}
/** `POST /api/admin/me/password` (issue 25): one's own password; other sessions end, this browser gets a new cookie. */
async function ownPassword({ deps, staff, body }: AdminInput<z.infer<typeof OwnPassword>, unknown>) {
  await changeOwnPassword(deps, staff.username, body.oldPassword, body.newPassword);
  // Every session of the member ended with the new credential version: this browser gets a new one.
  const { token, staff: now, maxAgeSeconds } = await continueStaffSession(deps, staff.username);
  return new HttpResponse(200, staffIdentity(now), {}, [sessionCookie(deps, token, maxAgeSeconds)]);
}
async function staffDelete({ deps, event, staff }: AdminInput<undefined, unknown>) {
  await deleteStaff(deps.db, deps.clock, pathParam(event, 'username'), staff.username);
  return new HttpResponse(204);
}

const sessions = async ({ deps, query }: AdminInput<undefined, z.infer<typeof SessionsQuery>>) =>
  listAnswer(await listLearnerSessions(deps, query));
async function revokeSession({ deps, event, staff }: AdminInput<undefined, unknown>) {
  await revokeLearnerSession(deps, pathParam(event, 'sessionId'), staff.username);
  return new HttpResponse(204);
}
const otpRecords = async ({ deps, query }: AdminInput<undefined, z.infer<typeof OtpQuery>>) =>
  listAnswer(await listOtpRecords(deps, query));

export const { handler, createHandler, routes } = defineGroup(adminRoutes, {
  'POST /api/admin/login': route.public({
    body: Credentials,
    responses: { 200: json(StaffIdentity, 'Signed in; the session cookie is set', { headers: sessionCookieHeader }) },
    errors: { not_authenticated: 'Wrong username or password, or an inactive account.' },
    run: signIn,
  }),
  'POST /api/admin/logout': route.public({
    responses: { 204: noContent('Signed out; the cookie is cleared', sessionCookieHeader) },
    run: signOut,
  }),
  'GET /api/admin/me': route.admin({ query: NoQuery, responses: { 200: StaffIdentity }, run: me }),
  'GET /api/admin/dashboard': route.admin({ query: NoQuery, description: 'Today (Tehran).', responses: { 200: Dashboard }, run: today }),
  'GET /api/admin/staff': route.admin({
    permission: 'view_staff',
    query: StaffQuery,
    responses: { 200: adminPage(StaffView) },
    run: staffList,
  }),
  'POST /api/admin/staff': route.admin({
    permission: 'add_staff',
    body: NewStaff,
    ...created(StaffView, 'The new account'),
    errors: { username_taken: 'The username is taken.' },
    run: staffCreate,
  }),
  'GET /api/admin/staff/{username}': route.admin({
    permission: 'view_staff',
    query: NoQuery,
    responses: { 200: StaffView },
    errors: staffNotFound,
    run: staffRead,
  }),
  'PATCH /api/admin/staff/{username}': route.admin({
    permission: 'change_staff',
    body: StaffChanges,
    description:
      'A superuser cannot deactivate or demote their own account (400). A new password, a deactivation and a reactivation end every session of the account; a superuser changing their own password gets a new session cookie, so only their other sessions end.',
    responses: {
      200: json(StaffView, 'The changed account', {
        headers: {
          'Set-Cookie': {
            ...sessionCookieHeader['Set-Cookie'],
            description: 'One’s own new password: a new session cookie',
            required: false,
          },
        },
      }),
    },
    errors: staffNotFound,
    run: staffUpdate,
  }),
  'POST /api/admin/staff/{username}/end-sessions': route.admin({
    permission: 'change_staff',
    description: 'Every session of the member ends on its next request, for good (a new password is not needed; they may sign in again).',
    responses: { 204: noContent('Every session of the member ended') },
    errors: staffNotFound,
    run: staffEndSessions,
  }),
  'POST /api/admin/me/end-sessions': route.admin({
    description: 'Every session of the caller ends, this one included; the cookie is cleared.',
    responses: { 204: noContent('Signed out everywhere; the cookie is cleared', sessionCookieHeader) },
    run: endOwnSessions,
  }),
  'POST /api/admin/me/password': route.admin({
    body: OwnPassword,
    description:
      'The current password is required (400 on `oldPassword` when wrong); the new one: 10-256 characters, not the current one. Every other session of the caller ends; this browser gets a new session cookie.',
    responses: { 200: json(StaffIdentity, 'Changed; a new session cookie is set', { headers: sessionCookieHeader }) },
    run: ownPassword,
  }),
  'DELETE /api/admin/staff/{username}': route.admin({
    permission: 'delete_staff',
    responses: { 204: noContent('Deleted') },
    errors: staffNotFound,
    run: staffDelete,
  }),
  'GET /api/admin/sessions': route.admin({
    permission: 'view_session',
    query: SessionsQuery,
    responses: { 200: adminPage(LearnerSession) },
    run: sessions,
  }),
  'DELETE /api/admin/sessions/{sessionId}': route.admin({
    permission: 'delete_session',
    responses: { 204: noContent('Revoked') },
    errors: { not_found: 'No such session.' },
    run: revokeSession,
  }),
  'GET /api/admin/otp-records': route.admin({
    permission: 'view_otprecord',
    query: OtpQuery,
    description: 'Never a code.',
    responses: { 200: adminPage(OtpRecord) },
    run: otpRecords,
  }),
});
