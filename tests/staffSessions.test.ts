/**
 * Staff sessions and sign-in abuse (issue 22 §2, §3; DESIGN §12), through the local runtime:
 * - a password change, a deactivation and "end sessions" (one member, or oneself: "sign out everywhere") end every
 *   session of the member for good; reactivation and a new account of the same name revive none;
 * - only failed sign-ins count, per (username, address) and per username, and a correct password from a fresh
 *   address always passes, so nobody can keep the owner out; the username is the one sent, not folded.
 * Addresses: the local edge names each socket's address, and 127.x.y.z are all this machine (support/from.ts).
 */
import { randomUUID } from 'node:crypto';
import { createStaff, STAFF_PERMISSIONS } from '@mathisland/core/admin';
import { describe, expect, it } from 'vitest';
import { callFrom } from './support/from';
import { admin, staffSession } from './support/payments';
import { call, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

const login = (stack: TestStack, username: string, password: string, from = '127.0.0.1') =>
  callFrom(stack.baseUrl, 'POST', '/api/admin/login', { from, body: { username, password } });
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') as string).split(';')[0] as string;
const me = async (stack: TestStack, cookie: string) => (await admin(stack, cookie, 'GET', '/api/admin/me')).status;

/** A staff member with two sessions (two browsers). */
async function twoSessions(stack: TestStack, options: { isSuperuser?: boolean } = {}) {
  const first = await staffSession(stack, options);
  const second = await login(stack, first.username, first.password);
  expect(second.status).toBe(200);
  return { ...first, other: cookieOf(second) };
}

describe('staff sessions end for good', () => {
  const stack = useStack({ now: NOW, env: { PUBLIC_BASE_URL: undefined } });

  it('on a password change: every session of the member, and only the new password signs in', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const clerk = await twoSessions(stack);
    const other = await staffSession(stack);
    expect((await admin(stack, root.cookie, 'PATCH', `/api/admin/staff/${clerk.username}`, { password: 'a-new-password' })).status).toBe(
      200,
    );
    expect(await me(stack, clerk.cookie)).toBe(401);
    expect(await me(stack, clerk.other)).toBe(401);
    // Nobody else's session is touched.
    expect(await me(stack, other.cookie)).toBe(200);
    expect(await me(stack, root.cookie)).toBe(200);
    expect((await login(stack, clerk.username, clerk.password)).status).toBe(401);
    expect((await login(stack, clerk.username, 'a-new-password')).status).toBe(200);
  });

  it('on a deactivation, and reactivation revives none', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const clerk = await twoSessions(stack);
    await admin(stack, root.cookie, 'PATCH', `/api/admin/staff/${clerk.username}`, { active: false });
    expect(await me(stack, clerk.cookie)).toBe(401);
    expect((await login(stack, clerk.username, clerk.password)).status).toBe(401);
    await admin(stack, root.cookie, 'PATCH', `/api/admin/staff/${clerk.username}`, { active: true });
    expect(await me(stack, clerk.cookie)).toBe(401);
    expect(await me(stack, clerk.other)).toBe(401);
    const again = await login(stack, clerk.username, clerk.password);
    expect(again.status).toBe(200);
    expect(await me(stack, cookieOf(again))).toBe(200);
    // A change of permissions alone ends nothing: it applies to the next request.
    await admin(stack, root.cookie, 'PATCH', `/api/admin/staff/${clerk.username}`, { permissions: ['view_order'] });
    expect((await admin(stack, cookieOf(again), 'GET', '/api/admin/me')).body.permissions).toEqual(['view_order']);
  });

  it('on "end sessions" by a superuser: every session of that member, who may sign in again', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const clerk = await twoSessions(stack);
    const ended = await admin(stack, root.cookie, 'POST', `/api/admin/staff/${clerk.username}/end-sessions`);
    expect(ended.status).toBe(204);
    expect(ended.text).toBe('');
    expect(await me(stack, clerk.cookie)).toBe(401);
    expect(await me(stack, clerk.other)).toBe(401);
    expect(await me(stack, root.cookie)).toBe(200);
    const again = await login(stack, clerk.username, clerk.password);
    expect(await me(stack, cookieOf(again))).toBe(200);
    // Its refusals: an unknown member, a query parameter, a body field.
    expect((await admin(stack, root.cookie, 'POST', '/api/admin/staff/nobody-here/end-sessions')).status).toBe(404);
    expect((await admin(stack, root.cookie, 'POST', `/api/admin/staff/${clerk.username}/end-sessions?all=1`)).status).toBe(400);
    const field = await admin(stack, root.cookie, 'POST', `/api/admin/staff/${clerk.username}/end-sessions`, { all: true });
    expect([field.status, field.body.code]).toEqual([400, 'validation_error']);
  });

  it('refuses "end sessions" of another member to staff without change_staff (every grantable permission is not enough)', async () => {
    const target = await staffSession(stack);
    const strong = await staffSession(stack, { permissions: [...STAFF_PERMISSIONS] });
    const refused = await admin(stack, strong.cookie, 'POST', `/api/admin/staff/${target.username}/end-sessions`);
    expect([refused.status, refused.body.code]).toEqual([403, 'permission_denied']);
    expect(refused.body.detail).toContain('change_staff');
    expect(await me(stack, target.cookie)).toBe(200);
    expect((await admin(stack, undefined, 'POST', `/api/admin/staff/${target.username}/end-sessions`)).status).toBe(401);
  });

  it('on "sign out everywhere": every session of the caller, this one included, with the cookie cleared', async () => {
    const clerk = await twoSessions(stack);
    const out = await admin(stack, clerk.cookie, 'POST', '/api/admin/me/end-sessions');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^mathisland_admin=; Path=\/api; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect(await me(stack, clerk.cookie)).toBe(401);
    expect(await me(stack, clerk.other)).toBe(401);
    expect((await admin(stack, clerk.cookie, 'POST', '/api/admin/me/end-sessions')).status).toBe(401);
    expect((await login(stack, clerk.username, clerk.password)).status).toBe(200);
  });

  it('keeps the browser of a superuser who changes their own password, and ends their other sessions', async () => {
    const root = await twoSessions(stack, { isSuperuser: true });
    const changed = await admin(stack, root.cookie, 'PATCH', `/api/admin/staff/${root.username}`, { password: 'my-own-new-password' });
    expect(changed.status).toBe(200);
    const renewed = cookieOf(changed);
    expect(renewed).not.toBe(root.cookie);
    expect(await me(stack, renewed)).toBe(200);
    expect(await me(stack, root.cookie)).toBe(401);
    expect(await me(stack, root.other)).toBe(401);
  });

  it('never revives the sessions of a deleted member for a new account of the same name', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const clerk = await staffSession(stack);
    expect((await admin(stack, root.cookie, 'DELETE', `/api/admin/staff/${clerk.username}`)).status).toBe(204);
    await createStaff(stack.deps.db, stack.clock, { username: clerk.username, password: clerk.password, isSuperuser: false });
    expect(await me(stack, clerk.cookie)).toBe(401);
  });
});

describe('staff sign-in that cannot be turned against the owner', () => {
  const stack = useStack({ now: NOW, env: { PUBLIC_BASE_URL: undefined } });

  /** A new superuser (not signed in) and a fresh hour. */
  async function owner() {
    stack.clock.advance(3600);
    const username = `owner-${randomUUID().slice(0, 8)}`;
    const password = `pw-${randomUUID()}`;
    await createStaff(stack.deps.db, stack.clock, { username, password, isSuperuser: true });
    return { username, password };
  }

  it('counts only failures: an owner signs in many times an hour from one address', async () => {
    const { username, password } = await owner();
    for (let i = 0; i < 12; i++) expect((await login(stack, username, password)).status).toBe(200);
    // A few mistakes between them change nothing either.
    for (let i = 0; i < 5; i++) expect((await login(stack, username, 'wrong-password')).status).toBe(401);
    expect((await login(stack, username, password)).status).toBe(200);
  });

  it('holds off one address after 10 failures for one username, without checking the password; others pass', async () => {
    const { username, password } = await owner();
    for (let i = 0; i < 10; i++) expect((await login(stack, username, 'wrong-password', '127.0.0.20')).status).toBe(401);
    const held = await login(stack, username, password, '127.0.0.20');
    expect([held.status, held.body.code]).toEqual([429, 'throttled']);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(held.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // The owner from their own address, and another member from the attacker's, are untouched.
    expect((await login(stack, username, password, '127.0.0.21')).status).toBe(200);
    const other = await owner();
    expect((await login(stack, other.username, other.password, '127.0.0.20')).status).toBe(200);
    // The hour over, the address may try again.
    stack.clock.advance(3600);
    expect((await login(stack, username, password, '127.0.0.20')).status).toBe(200);
  });

  it('slows a username attacked from many addresses, yet lets the correct password in from a fresh address', async () => {
    const { username, password } = await owner();
    // One guess from each of 12 addresses: each address is fresh, so each guess is checked.
    for (let a = 30; a < 42; a++) expect((await login(stack, username, 'wrong-password', `127.0.0.${a}`)).status).toBe(401);
    // 12 failures: an address that failed waits for the username's slot, even with the right password.
    const slowed = await login(stack, username, password, '127.0.0.30');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(stack, username, 'wrong-password', '127.0.0.31')).status).toBe(429);
    // A fresh address is never delayed.
    expect((await login(stack, username, password, '127.0.0.45')).status).toBe(200);
    // Once the slot opens, the used address gets one attempt.
    stack.clock.advance(301);
    expect((await login(stack, username, password, '127.0.0.30')).status).toBe(200);
  });

  it('checks at most 10 of a burst of parallel guesses from one address', async () => {
    const { username } = await owner();
    const results = await Promise.all(Array.from({ length: 25 }, () => login(stack, username, 'wrong-password', '127.0.0.50')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('takes the username as sent: failures of another spelling never lock the account, and it does not sign in', async () => {
    const { username, password } = await owner();
    for (const spelling of [username.toUpperCase(), ` ${username}`, `${username} `]) {
      for (let i = 0; i < 4; i++) expect((await login(stack, spelling, 'wrong-password', '127.0.0.60')).status).toBe(401);
    }
    // 12 failures from this address, none of them for this username.
    expect((await login(stack, username, password, '127.0.0.60')).status).toBe(200);
    expect((await login(stack, username.toUpperCase(), password, '127.0.0.61')).status).toBe(401);
  });

  it('never names which part was wrong, and answers malformed bodies with 400', async () => {
    const { username } = await owner();
    const unknown = await login(stack, 'no-such-member', 'wrong-password');
    const wrong = await login(stack, username, 'wrong-password');
    expect(unknown.body).toEqual(wrong.body);
    for (const body of [{ username }, { username: 'x'.repeat(65), password: 'p' }, { username, password: 'p', extra: 1 }]) {
      expect((await call(stack, 'POST', '/api/admin/login', { body })).status).toBe(400);
    }
  });
});
