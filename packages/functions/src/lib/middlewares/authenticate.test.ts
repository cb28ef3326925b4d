import { DomainError } from '@mathisland/core';
import { ADMIN_COOKIE } from '@mathisland/core/admin';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleScopes } from '../../../../../infra/routes';
import { runPhase, testRequest } from '../testing';
import { authenticate } from './authenticate';

// What the middleware decides by auth kind; the sessions themselves are the domain's (core auth and admin, and the
// black-box tests/auth.test.ts and tests/staffSessions.test.ts).
const core = vi.hoisted(() => ({
  authenticateUser: vi.fn(async (..._args: unknown[]) => ({ id: 7 }) as unknown),
  authenticateStaff: vi.fn(
    async (..._args: unknown[]) => ({ username: 'support1', isSuperuser: false, permissions: ['view_order'] }) as unknown,
  ),
}));
vi.mock('@mathisland/core/auth', async (importOriginal) => ({ ...(await importOriginal<object>()), authenticate: core.authenticateUser }));
vi.mock('@mathisland/core/admin', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  authenticateStaff: core.authenticateStaff,
}));

beforeEach(() => {
  core.authenticateUser.mockClear();
  core.authenticateStaff.mockClear();
});

describe('authenticate', () => {
  it('none: asks nobody', async () => {
    const r = await runPhase(authenticate({ kind: 'none' }), testRequest({ headers: { authorization: 'Bearer x' } }));
    expect(core.authenticateUser).not.toHaveBeenCalled();
    expect(r.context.user).toBeUndefined();
  });

  it('user: hands the Authorization header to the sessions and keeps the learner', async () => {
    const r = await runPhase(authenticate({ kind: 'user' }), testRequest({ headers: { Authorization: 'Bearer abc' } }));
    expect(core.authenticateUser).toHaveBeenCalledWith(r.context.deps, 'Bearer abc', undefined);
    expect(r.context.user).toEqual({ id: 7 });
  });

  it('user with countOnUser: the scope and its rule go with the same request', async () => {
    await runPhase(authenticate({ kind: 'user', countOnUser: 'home' }), testRequest({ headers: { authorization: 'Bearer abc' } }));
    expect(core.authenticateUser.mock.calls[0]?.[2]).toEqual({ scope: 'home', rule: throttleScopes.home });
  });

  it('user: a refused session refuses the request', async () => {
    core.authenticateUser.mockRejectedValueOnce(new DomainError('not_authenticated', 'sign in'));
    await expect(runPhase(authenticate({ kind: 'user' }), testRequest())).rejects.toMatchObject({ code: 'not_authenticated' });
  });

  describe('internal', () => {
    const env = { INTERNAL_SERVICE_KEY: 'internal-key-of-the-service-0123' };
    it('accepts X-Internal-Key equal to INTERNAL_SERVICE_KEY', async () => {
      await expect(
        runPhase(authenticate({ kind: 'internal' }), testRequest({ env, headers: { 'X-Internal-Key': env.INTERNAL_SERVICE_KEY } })),
      ).resolves.toBeDefined();
    });

    it.each([
      ['another key', env, { 'x-internal-key': 'internal-key-of-the-service-0124' }],
      ['no key', env, {}],
      ['the key unset', {}, { 'x-internal-key': '' }],
      ['debug mode', { ...env, DEBUG: 'true' }, { 'x-internal-key': env.INTERNAL_SERVICE_KEY }],
    ])('refuses %s with 403', async (_, settings, headers) => {
      await expect(runPhase(authenticate({ kind: 'internal' }), testRequest({ env: settings, headers }))).rejects.toMatchObject({
        code: 'permission_denied',
      });
    });
  });

  describe('admin', () => {
    it('reads the session cookie and keeps the staff member', async () => {
      const r = await runPhase(authenticate({ kind: 'admin' }), testRequest({ cookies: [`${ADMIN_COOKIE}=tok%3D1`] }));
      expect(core.authenticateStaff).toHaveBeenCalledWith(r.context.deps, 'tok=1');
      expect(r.context.staff).toMatchObject({ username: 'support1' });
    });

    it('holds the route’s permission: 403 without it, through with it', async () => {
      const cookies = [`${ADMIN_COOKIE}=t`];
      await expect(runPhase(authenticate({ kind: 'admin', permission: 'change_order' }), testRequest({ cookies }))).rejects.toMatchObject({
        code: 'permission_denied',
      });
      await expect(runPhase(authenticate({ kind: 'admin', permission: 'view_order' }), testRequest({ cookies }))).resolves.toBeDefined();
    });
  });
});
