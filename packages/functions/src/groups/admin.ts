/**
 * Endpoint group `admin`: the staff's session, dashboard and the superuser-only models (DESIGN §9;
 * docs/admin-api.md is the contract). Other admin resources: `adminsales` (users, orders, payment events),
 * `admincatalog` (plans, discount codes, offers), `adminsupport` (tickets, notifications, tutor).
 *
 * - `POST /api/admin/login` `{ username, password }` → `{ username, isSuperuser, permissions }` and the session
 *   cookie (HttpOnly, SameSite=Strict, Path=/api so the API docs see it, Secure when PUBLIC_BASE_URL is https);
 *   throttled per IP and per username. Logout clears it. `GET /api/admin/me` answers the same identity.
 * - Staff accounts, learners' sessions and OTP records: superusers only.
 */
import type { Deps } from '@mathisland/core';
import {
  ADMIN_COOKIE,
  createStaff,
  deleteStaff,
  getStaff,
  listStaff,
  type Staff,
  StaffPermission,
  staffIdentity,
  staffLogin,
  staffLogout,
  updateStaff,
} from '@mathisland/core/admin';
import { listLearnerSessions, listOtpRecords, revokeLearnerSession } from '@mathisland/core/auth';
import { dashboard } from '@mathisland/core/stats';
import * as z from 'zod';
import { listAnswer, listQuery, pathParam, QueryId, wholeList } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { cookie, HttpResponse, isoTime } from '../lib/http';
import { type AdminInput, type RouteInput, route } from '../lib/route';

/** The admin session cookie: `Path=/api`, HttpOnly, SameSite=Strict; `Secure` when the service is served over https (PUBLIC_BASE_URL). */
function sessionCookie(deps: Deps, value: string, maxAgeSeconds: number): string {
  const secure = deps.settings.publicBaseUrl?.startsWith('https:') ? '; Secure' : '';
  return `${ADMIN_COOKIE}=${value}; Path=/api; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

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

const Credentials = z.strictObject({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) });
const Password = z.string().min(10, 'at least 10 characters').max(256);
const NewStaff = z.strictObject({
  username: z.string().min(3).max(64),
  password: Password,
  isSuperuser: z.boolean().default(false),
  permissions: z.array(StaffPermission).max(50).default([]),
  active: z.boolean().default(true),
});
const StaffChanges = z.strictObject({
  password: Password.optional(),
  isSuperuser: z.boolean().optional(),
  permissions: z.array(StaffPermission).max(50).optional(),
  active: z.boolean().optional(),
});
const StaffQuery = listQuery({});
const SessionsQuery = listQuery({ userId: QueryId.optional() });
const OtpQuery = listQuery({ phone: z.string().min(1).max(32).optional() });
const NoQuery = z.strictObject({});

async function signIn({ deps, body }: RouteInput<z.infer<typeof Credentials>, unknown>) {
  const { token, staff, maxAgeSeconds } = await staffLogin(deps, body.username, body.password);
  return new HttpResponse(200, staffIdentity(staff), {}, [sessionCookie(deps, token, maxAgeSeconds)]);
}

async function signOut({ deps, event }: RouteInput<undefined, unknown>) {
  await staffLogout(deps, cookie(event, ADMIN_COOKIE));
  return new HttpResponse(204, undefined, {}, [sessionCookie(deps, '', 0)]);
}

const me = async ({ staff }: AdminInput<undefined, unknown>) => staffIdentity(staff);
const today = async ({ deps }: AdminInput<undefined, unknown>) => dashboard(deps);

const staffList = async ({ deps, query }: AdminInput<undefined, z.infer<typeof StaffQuery>>) =>
  wholeList((await listStaff(deps.db)).map(staffView), query);
const staffRead = async ({ deps, event }: AdminInput<undefined, unknown>) =>
  staffView(await getStaff(deps.db, pathParam(event, 'username')));
const staffCreate = async ({ deps, body, staff }: AdminInput<z.infer<typeof NewStaff>, unknown>) =>
  staffView(await createStaff(deps.db, deps.clock, body, staff.username));
const staffUpdate = async ({ deps, body, event, staff }: AdminInput<z.infer<typeof StaffChanges>, unknown>) =>
  staffView(await updateStaff(deps.db, deps.clock, pathParam(event, 'username'), body, staff.username));
async function staffDelete({ deps, event, staff }: AdminInput<undefined, unknown>) {
  await deleteStaff(deps.db, pathParam(event, 'username'), staff.username);
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

export const { handler, createHandler, routes } = defineGroup('admin', {
  'POST /api/admin/login': route.public({ body: Credentials, run: signIn }),
  'POST /api/admin/logout': route.public({ run: signOut }),
  'GET /api/admin/me': route.admin({ query: NoQuery, run: me }),
  'GET /api/admin/dashboard': route.admin({ query: NoQuery, run: today }),
  'GET /api/admin/staff': route.admin({ permission: 'view_staff', query: StaffQuery, run: staffList }),
  'POST /api/admin/staff': route.admin({ permission: 'add_staff', body: NewStaff, status: 201, run: staffCreate }),
  'GET /api/admin/staff/{username}': route.admin({ permission: 'view_staff', query: NoQuery, run: staffRead }),
  'PATCH /api/admin/staff/{username}': route.admin({ permission: 'change_staff', body: StaffChanges, run: staffUpdate }),
  'DELETE /api/admin/staff/{username}': route.admin({ permission: 'delete_staff', run: staffDelete }),
  'GET /api/admin/sessions': route.admin({ permission: 'view_session', query: SessionsQuery, run: sessions }),
  'DELETE /api/admin/sessions/{sessionId}': route.admin({ permission: 'delete_session', run: revokeSession }),
  'GET /api/admin/otp-records': route.admin({ permission: 'view_otprecord', query: OtpQuery, run: otpRecords }),
});
