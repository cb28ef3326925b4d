/**
 * The staff session: `POST /api/admin/login` sets an HttpOnly cookie the panel never sees; `GET /api/admin/me`
 * says who is signed in and with which permissions. The answer is cached (react-admin asks for identity and
 * permissions several times per screen) until login, logout or a 401.
 *
 * - `checkError`: 401 → back to the login page; 403 → stay (react-admin shows the API's detail, which names the
 *   missing permission).
 * - `getPermissions`: the permission strings, plus `is_superuser` for a superuser.
 * - `canAccess`: react-admin's access control, so menus, buttons and pages a staff member may not use are not
 *   shown (`can` below: the permission the API description names for the action's route).
 */
import type { AuthProvider } from 'react-admin';
import { API_BASE, operationOf, type Permission, type Schemas } from './contract';
import { api } from './http';

export type StaffIdentity = Schemas['StaffIdentity'];

export const SUPERUSER = 'is_superuser';

/** The permission list of a staff member, as `can` reads it. */
export function permissionsOf(identity: StaffIdentity): string[] {
  return identity.isSuperuser ? [...identity.permissions, SUPERUSER] : identity.permissions;
}

/**
 * Pages whose permission is not their route's own: the API description (`/api/docs/`, no admin route) and the whole
 * staff history (its route also serves one record's history to whoever may view that record).
 */
const PAGE_PERMISSIONS: Record<string, Permission> = { apidocs: 'view_apidocs', history: 'view_logentry' };

/**
 * Whether `permissions` (from `permissionsOf`) allow `action` on `resource`: the action's route in the API description
 * (`operationOf`: list, show, create, edit, delete, cancel, refund, reply, close, export, bulk...) and the permission it
 * needs (none: any signed-in staff member; a superuser holds every one). An action the API has no route for is offered
 * to nobody.
 */
export function can(permissions: readonly string[] | undefined, resource: string, action: string): boolean {
  if (!permissions) return false;
  const superuser = permissions.includes(SUPERUSER);
  const page = PAGE_PERMISSIONS[resource];
  if (page) return superuser || permissions.includes(page);
  const operation = operationOf(resource, action);
  if (!operation) return false;
  return !operation.permission || superuser || permissions.includes(operation.permission);
}

export function createAuthProvider(): AuthProvider & { identity(): Promise<StaffIdentity> } {
  let cached: Promise<StaffIdentity> | undefined;

  const fetchIdentity = async (): Promise<StaffIdentity> => (await api<StaffIdentity>('me')).json;

  const identity = (): Promise<StaffIdentity> => {
    cached ??= fetchIdentity().catch((error) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };

  return {
    identity,
    async login({ username, password }: { username: string; password: string }) {
      cached = undefined;
      try {
        // Accounts are lower case and the API matches the username exactly: spare a phone's capital first letter.
        const { json } = await api<StaffIdentity>('login', {
          method: 'POST',
          body: { username: username?.trim().toLowerCase(), password },
        });
        cached = Promise.resolve(json);
      } catch (error: any) {
        if (error?.status === 401) throw new Error('ra.auth.sign_in_error');
        throw error;
      }
    },
    async logout() {
      const signedIn = cached !== undefined;
      cached = undefined;
      if (signedIn) {
        // The cookie is HttpOnly: only the API can end the session.
        await fetch(`${API_BASE}/logout`, { method: 'POST', credentials: 'include' }).catch(() => undefined);
      }
    },
    async checkAuth() {
      await identity();
    },
    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        cached = undefined;
        throw error;
      }
      // 403 and the rest: stay on the page; the error is shown where it happened.
    },
    async getIdentity() {
      const me = await identity();
      return { id: me.username, fullName: me.username };
    },
    async getPermissions() {
      return permissionsOf(await identity());
    },
    async canAccess({ resource, action }: { resource: string; action: string }) {
      return can(permissionsOf(await identity()), resource, action);
    },
  };
}
