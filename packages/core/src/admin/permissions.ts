/**
 * Staff permissions, Django-style `<view|add|change|delete>_<model>` (DESIGN §9; spec Authentication 6; the
 * list of models and what each permission opens: docs/admin-api.md "Permissions").
 *
 * - {@link STAFF_PERMISSIONS}: what a superuser may grant a staff member. Only the actions a model has routes
 *   for exist (a payment event is never changed, so there is no `change_paymentevent`).
 * - {@link SUPERUSER_PERMISSIONS}: superuser-only: staff accounts, learners' sessions, OTP records, and adding
 *   or changing discount codes (spec Authentication 6: "some admin models (codes, sessions) can be added or
 *   changed only by a superuser"). They cannot be granted; a superuser holds them and every other one.
 */
import * as z from 'zod';

/** Grantable permissions, one a line. */
export const STAFF_PERMISSIONS = [
  'view_user',
  'view_order',
  'change_order',
  'view_paymentevent',
  'view_plan',
  'add_plan',
  'change_plan',
  'delete_plan',
  'view_discountcode',
  'delete_discountcode',
  'view_offer',
  'change_offer',
  'view_ticket',
  'change_ticket',
  'view_notification',
  'add_notification',
  'view_marketplacecredential',
  'change_marketplacecredential',
  'view_tutorfeedback',
  'view_tutorusage',
  // The API description (GET /api/schema/, /api/docs/, /api/redoc/; DESIGN §10), e.g. for an app developer's account.
  'view_apidocs',
  // The staff history of every model (GET /api/admin/history; DESIGN §9, Django's LogEntry). One record's own
  // history needs only that model's view permission (historyAccess.ts).
  'view_logentry',
] as const;
export const StaffPermission = z.enum(STAFF_PERMISSIONS);
export type StaffPermission = z.infer<typeof StaffPermission>;

/** Held by superusers only; never stored on a staff member. */
export const SUPERUSER_PERMISSIONS = [
  'view_staff',
  'add_staff',
  'change_staff',
  'delete_staff',
  'view_session',
  'delete_session',
  'view_otprecord',
  'add_discountcode',
  'change_discountcode',
] as const;
export type SuperuserPermission = (typeof SUPERUSER_PERMISSIONS)[number];

/** Any permission a route may require. */
export type Permission = StaffPermission | SuperuserPermission;

/** Every permission, as a superuser holds them (the list `GET /api/admin/me` shows a superuser). */
export const ALL_PERMISSIONS: readonly Permission[] = [...STAFF_PERMISSIONS, ...SUPERUSER_PERMISSIONS];

/** Who holds permissions: a superuser flag and the granted list. */
export interface PermissionHolder {
  isSuperuser: boolean;
  permissions: readonly StaffPermission[];
}

/** Whether `staff` holds `permission`: a superuser holds every one, others only what was granted. */
export const hasPermission = (staff: PermissionHolder, permission: Permission): boolean =>
  staff.isSuperuser || (staff.permissions as readonly Permission[]).includes(permission);

/** The permissions `staff` holds: all of them for a superuser, else the granted ones. */
export const permissionsOf = (staff: PermissionHolder): Permission[] => (staff.isSuperuser ? [...ALL_PERMISSIONS] : [...staff.permissions]);
