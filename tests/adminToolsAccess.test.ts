/**
 * Issue 25 §6: every route of the staff's everyday tools (infra/routes/admintools.ts and adminexport.ts) answers 401 without a session,
 * 403 `permission_denied` naming its permission without it, and succeeds with exactly that permission (a superuser
 * for the superuser-only ones); and refuses bad input (an unknown query parameter, a bad query value, a bad body) with
 * a JSON 400 naming the field. The table covers every one of those routes.
 */
import { randomUUID } from 'node:crypto';
import { SUPERUSER_PERMISSIONS } from '@mathisland/core/admin';
import { saveDiscountCode } from '@mathisland/core/subscriptions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from '../infra/routes';
import { adminexportRoutes } from '../infra/routes/adminexport';
import { admintoolsRoutes } from '../infra/routes/admintools';
import { EXPORTS } from '../packages/functions/src/lib/exports';
import { admin, staffSession } from './support/payments';
import { call, type Session, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

interface Case {
  key: string;
  path: () => string;
  /** null: any signed-in staff member. */
  permission: string | null;
  superuserOnly?: boolean;
  body?: () => unknown;
  status: number;
  /** A query string the route must refuse (400, naming `badField`). */
  badQuery?: string;
  /** A body the route must refuse (400, naming `badField`). */
  badBody?: unknown;
  badField?: string;
}

describe('everyday tools: permissions and bad input', () => {
  const stack = useStack({ now: NOW });
  const cookies = new Map<string, string>();
  const code = `TLS${randomUUID().slice(0, 6).toUpperCase()}`;
  let learner: Session;
  let ticketId = 0;

  async function sessionWith(permission: string | null, superuser = false): Promise<string> {
    const key = superuser ? '*' : (permission ?? '');
    if (!cookies.has(key)) {
      const perms = superuser || !permission ? [] : [permission];
      cookies.set(key, (await staffSession(stack, { isSuperuser: superuser, permissions: perms as never })).cookie);
    }
    return cookies.get(key) as string;
  }

  beforeAll(async () => {
    learner = await signIn(stack);
    ticketId = (await call(stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject: 'Help', text: 'Where?' } })).body
      .id;
    await saveDiscountCode(stack.deps.db, { code, title: 't', percent: 5, advertised: true, active: true });
  });

  const cases: Case[] = [
    {
      key: 'GET /api/admin/history',
      path: () => '/api/admin/history',
      permission: 'view_logentry',
      status: 200,
      badQuery: 'from=2026-13-01',
      badField: 'from',
    },
    {
      key: 'GET /api/admin/stats',
      path: () => '/api/admin/stats?days=30',
      permission: null,
      status: 200,
      badQuery: 'days=0',
      badField: 'days',
    },
    {
      key: 'POST /api/admin/discount-codes/bulk',
      path: () => '/api/admin/discount-codes/bulk',
      permission: 'change_discountcode',
      superuserOnly: true,
      body: () => ({ ids: [code], action: 'deactivate' }),
      status: 200,
      badBody: { ids: [code], action: 'remove' },
      badField: 'action',
    },
    {
      key: 'POST /api/admin/offers/bulk',
      path: () => '/api/admin/offers/bulk',
      permission: 'change_offer',
      body: () => ({ ids: [code], action: 'activate' }),
      status: 200,
      badBody: { ids: code, action: 'activate' },
      badField: 'ids',
    },
    {
      key: 'POST /api/admin/tickets/bulk',
      path: () => '/api/admin/tickets/bulk',
      permission: 'change_ticket',
      body: () => ({ ids: [ticketId], action: 'close' }),
      status: 200,
      badBody: { ids: [ticketId] },
      badField: 'action',
    },
    {
      key: 'POST /api/admin/users/bulk',
      path: () => '/api/admin/users/bulk',
      permission: 'delete_session',
      superuserOnly: true,
      body: () => ({ ids: [learner.userId], action: 'end_sessions' }),
      status: 200,
      badBody: { ids: Array.from({ length: 101 }, (_, i) => i + 1), action: 'end_sessions' },
      badField: 'ids',
    },
    {
      key: 'POST /api/admin/staff/bulk',
      path: () => '/api/admin/staff/bulk',
      permission: 'change_staff',
      superuserOnly: true,
      body: () => ({ ids: ['nobody-here'], action: 'end_sessions' }),
      status: 200,
      badBody: { ids: ['someone'], action: 'close' },
      badField: 'action',
    },
    {
      key: 'GET /api/admin/users/{id}/tutor-usage',
      path: () => `/api/admin/users/${learner.userId}/tutor-usage`,
      permission: 'view_tutorusage',
      status: 200,
      badQuery: 'days=3',
      badField: 'days',
    },
    {
      key: 'POST /api/admin/me/password',
      path: () => '/api/admin/me/password',
      permission: null,
      body: () => ({ oldPassword: 'not-the-password', newPassword: 'a-new-long-password' }),
      // A wrong current password is refused as bad input (the table's sessions stay usable).
      status: 400,
      badBody: { oldPassword: 'x', newPassword: 'short' },
      badField: 'newPassword',
    },
    // Every CSV export: its list's view permission (superuser-only lists: a superuser), and no `cursor` or `limit`.
    ...EXPORTS.map(
      (e): Case => ({
        key: `GET /api/admin/${e.resource}/export.csv`,
        path: () => `/api/admin/${e.resource}/export.csv`,
        permission: e.permission ?? 'view_logentry',
        superuserOnly: (SUPERUSER_PERMISSIONS as readonly string[]).includes(e.permission ?? ''),
        status: 200,
        badQuery: 'limit=10',
        badField: 'limit',
      }),
    ),
  ];

  it('covers every route of infra/routes/admintools.ts and adminexport.ts, and the own password (group admin)', () => {
    expect(cases.map((c) => c.key).sort()).toEqual(
      [...admintoolsRoutes, ...adminexportRoutes].map(routeKey).concat('POST /api/admin/me/password').sort(),
    );
  });

  it.each(cases)('$key: 401 without a session, 403 without $permission, $status with it', async (c) => {
    const [method] = c.key.split(' ') as [string];
    const anonymous = await admin(stack, undefined, method, c.path(), c.body?.());
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'not_authenticated']);
    if (c.permission) {
      const denied = await admin(stack, await sessionWith(null), method, c.path(), c.body?.());
      expect(denied.status, denied.text).toBe(403);
      expect(denied.body).toMatchObject({ code: 'permission_denied', detail: expect.stringContaining(c.permission) });
    }
    const allowed = await admin(stack, await sessionWith(c.permission, Boolean(c.superuserOnly)), method, c.path(), c.body?.());
    expect(allowed.status, allowed.text).toBe(c.status);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
  });

  it.each(cases)('$key: refuses an unknown query parameter and bad input with a JSON 400', async (c) => {
    const [method] = c.key.split(' ') as [string];
    const root = await sessionWith(null, true);
    const join = c.path().includes('?') ? '&' : '?';
    const unknown = await admin(stack, root, method, `${c.path()}${join}colour=red`, c.body?.());
    expect([unknown.status, unknown.body.code], unknown.text).toEqual([400, 'validation_error']);
    expect(unknown.body.fields).toHaveProperty('colour');
    if (c.badQuery) {
      const bad = await admin(stack, root, method, `${c.path().split('?')[0]}?${c.badQuery}`, c.body?.());
      expect([bad.status, bad.body.code], bad.text).toEqual([400, 'validation_error']);
      expect(bad.body.fields).toHaveProperty(c.badField as string);
    }
    if (c.badBody !== undefined) {
      const bad = await admin(stack, root, method, c.path(), c.badBody);
      expect([bad.status, bad.body.code], bad.text).toEqual([400, 'validation_error']);
      expect(bad.body.fields).toHaveProperty(c.badField as string);
      expect((await admin(stack, root, method, c.path(), '{not json')).body.code).toBe('invalid_json');
    }
  });
});
