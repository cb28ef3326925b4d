/**
 * Races of the login (spec Authentication 1-4; issue 15 moved the code's consumption into the login's own
 * transaction and the phone's owner into the code item): two logins with one code, one wins; first logins
 * racing for one phone make one user; a stale owner noted by a code never signs in the wrong account. The rival
 * login runs at a certain point of the first one (support/interleave.ts).
 */
import { findOrCreateUser, getUser, type LoginResult, login, phoneKey, publicIdKey, userIdByPhone, userKey } from '@mathisland/core/auth';
import { deleteItem } from '@mathisland/core/db';
import { describe, expect, it } from 'vitest';
import { commandOf, interleaved } from './support/interleave';
import { call, lastCode, newPhone, signIn, type TestStack, useStack } from './support/stack';

const FIXED = '09120000091';
const FIXED_PARALLEL = '09120000092';

async function codeFor(stack: TestStack, phone: string): Promise<string> {
  const res = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
  expect(res.status).toBe(200);
  return lastCode(stack, phone);
}

/** The first login's guess reservation on the phone's code item (its first request). */
const checksCode = (phone: string) => commandOf('UpdateCommand', `OTP#${phone}`);

describe('login races', () => {
  const stack = useStack({ env: { FIXED_OTP_LOGINS: `${FIXED}:4321,${FIXED_PARALLEL}:4321` } });

  it('two logins with one code for a known phone: the one that consumes it first wins, the other starts no session', async () => {
    const s = stack;
    const phone = newPhone();
    const before = await signIn(s, phone);
    s.clock.advance(61);
    const code = await codeFor(s, phone);
    let rival: LoginResult | undefined;
    const deps = interleaved(s.deps, checksCode(phone), async () => {
      rival = await login(s.deps, phone, code);
    });
    await expect(login(deps, phone, code)).rejects.toMatchObject({ code: 'otp_invalid', detail: 'The code was already used' });
    expect(rival).toMatchObject({ isNewUser: false, user: { id: before.userId, publicId: expect.stringMatching(/^User\d{6}$/) } });
    // The winner's session is the user's one session; the earlier one is revoked.
    expect((await call(s, 'POST', '/api/auth/refresh', { body: { refreshToken: rival?.refreshToken } })).status).toBe(200);
    expect((await call(s, 'POST', '/api/auth/refresh', { body: { refreshToken: before.refreshToken } })).status).toBe(401);
  });

  it('two first logins with one code: one user, the other login refused', async () => {
    const s = stack;
    const phone = newPhone();
    const code = await codeFor(s, phone);
    let rival: LoginResult | undefined;
    // The rival signs in after the first login took a user id and before it writes the user.
    const deps = interleaved(s.deps, commandOf('UpdateCommand', 'COUNTER'), async () => {
      rival = await login(s.deps, phone, code);
    });
    await expect(login(deps, phone, code)).rejects.toMatchObject({ code: 'otp_invalid' });
    expect(rival?.isNewUser).toBe(true);
    expect(await userIdByPhone(s.deps.db, phone)).toBe(rival?.user.id);
  });

  it('first logins racing for one fixed-code phone make one user and both sign in', async () => {
    const s = stack;
    let rival: LoginResult | undefined;
    // The rival creates the user right after the first login found the phone without one.
    const deps = interleaved(s.deps, commandOf('GetCommand', `PHONE#${FIXED}`), async () => {
      rival = await login(s.deps, FIXED, '4321');
    });
    const first = await login(deps, FIXED, '4321');
    expect(rival?.isNewUser).toBe(true);
    expect(first).toMatchObject({ isNewUser: false, user: rival?.user });
    expect(await userIdByPhone(s.deps.db, FIXED)).toBe(first.user.id);
  });

  it('parallel first logins at a fixed-code phone over HTTP make one user', async () => {
    const s = stack;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call(s, 'POST', '/api/auth/login', { body: { phone: FIXED_PARALLEL, otp: '4321' } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.user.id)).size).toBe(1);
    expect(results.filter((r) => r.body.isNewUser)).toHaveLength(1);
  });

  it('a code noting a user deleted since signs the phone in as a new user', async () => {
    const s = stack;
    const phone = newPhone();
    const before = await signIn(s, phone);
    s.clock.advance(61);
    const code = await codeFor(s, phone); // notes the user
    const gone = await getUser(s.deps.db, before.userId);
    for (const key of [userKey(before.userId), phoneKey(phone), publicIdKey(gone?.publicId ?? '')]) await deleteItem(s.deps.db, key);
    const res = await call(s, 'POST', '/api/auth/login', { body: { phone, otp: code } });
    expect(res.status).toBe(200);
    expect(res.body.isNewUser).toBe(true);
    expect(res.body.user.id).not.toBe(before.userId);
    expect(await userIdByPhone(s.deps.db, phone)).toBe(res.body.user.id);
  });

  it('a code sent before the phone had a user signs in the user the phone got meanwhile', async () => {
    const s = stack;
    const phone = newPhone();
    const code = await codeFor(s, phone); // notes: no user
    const { user } = await findOrCreateUser(s.deps, phone);
    const res = await call(s, 'POST', '/api/auth/login', { body: { phone, otp: code } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isNewUser: false, user: { id: user.id, publicId: user.publicId } });
  });
});
