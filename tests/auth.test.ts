/**
 * Phone sign-in and sessions (spec Authentication 1-4, 10; Limits; DESIGN §3, §4).
 */
import { spawnSync } from 'node:child_process';
import { listOtpRecords } from '@mathisland/core/auth';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { call, lastCode, newPhone, signIn, type TestStack, useStack } from './support/stack';

/** How many guesses at `phone`'s code were compared (the attempts its record counts; staff see them too). */
async function guessesChecked(stack: TestStack, phone: string): Promise<number | undefined> {
  return (await listOtpRecords(stack.deps, { phone, limit: 1 })).items[0]?.attempts;
}

describe('one-time codes', () => {
  const stack = useStack();

  it('sends a 6-digit code by SMS and never returns it', async () => {
    const phone = newPhone();
    const res = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    expect(res.status).toBe(200);
    const code = await lastCode(stack, phone);
    expect(code).toMatch(/^\d{6}$/);
    expect(res.text).not.toContain(code);
  });

  it('kills a code after 5 wrong guesses, even for the right code afterwards', async () => {
    const phone = newPhone();
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    const code = await lastCode(stack, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: wrong } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('otp_invalid');
    }
    const right = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } });
    expect(right.status).toBe(401);
    expect(right.body.code).toBe('otp_invalid');
  });

  it('counts a burst of parallel wrong guesses atomically: five are checked, the rest find the code dead, and the right code is refused after', async () => {
    const phone = newPhone();
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    const code = await lastCode(stack, phone);
    const wrong = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const results = await Promise.all(wrong.map((otp) => call(stack, 'POST', '/api/auth/login', { body: { phone, otp } })));
    expect(results.every((r) => r.status === 401 && r.body.code === 'otp_invalid')).toBe(true);
    // Exactly five guesses were checked: the first four are told the code is wrong, the fifth that the code is now
    // dead; every other one found the code dead without being compared.
    expect(results.filter((r) => /the code is wrong or has expired/i.test(r.body.detail))).toHaveLength(4);
    expect(results.filter((r) => /too many wrong guesses: ask for a new code/i.test(r.body.detail))).toHaveLength(26);
    expect(await guessesChecked(stack, phone)).toBe(5);
    const right = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } });
    expect(right.status).toBe(401);
    expect(right.body.detail).toMatch(/too many wrong guesses: ask for a new code/i);
  });

  it('accepts a code once: a replayed login fails', async () => {
    const phone = newPhone();
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    const code = await lastCode(stack, phone);
    const [a, b] = await Promise.all([
      call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } }),
      call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
  });

  it('expires a code after its TTL', async () => {
    const phone = newPhone();
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    const code = await lastCode(stack, phone);
    stack.clock.advance(301);
    const res = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } });
    expect(res.status).toBe(401);
  });

  it('refuses a second code within the resend cooldown with 429 and Retry-After', async () => {
    const phone = newPhone();
    expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })).status).toBe(200);
    const again = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    stack.clock.advance(61);
    expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })).status).toBe(200);
  });

  it('sends one code to requests at once (a double tap, a retry): the others are 429, and the code sent works', async () => {
    for (const previous of [false, true]) {
      const phone = newPhone();
      // Once with no code before, once replacing one sent more than a minute ago.
      if (previous) {
        expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })).status).toBe(200);
        stack.clock.advance(61);
      }
      const before = stack.smsOutbox.filter((m) => m.phone === phone).length;
      const answers = await Promise.all(Array.from({ length: 8 }, () => call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })));
      const sent = stack.smsOutbox.filter((m) => m.phone === phone).slice(before);
      expect(sent).toHaveLength(1);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
      const login = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: sent[0]!.token } });
      expect(login.status, login.text).toBe(200);
    }
  });

  it('refuses malformed phones and codes with validation errors and sends nothing', async () => {
    const before = stack.smsOutbox.length;
    for (const body of [
      { phone: '۰۹۱۲۱۲۳۴۵۶۷' },
      { phone: 9121234567 },
      { phone: '0912 123 4567' },
      {},
      { phone: '09121234567', extra: 1 },
    ]) {
      const res = await call(stack, 'POST', '/api/auth/otp/request', { body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    expect(stack.smsOutbox.length).toBe(before);
  });
});

describe('users', () => {
  const stack = useStack();

  it('creates a user with a publicId on first login and finds it on the next', async () => {
    const phone = newPhone();
    const first = await signIn(stack, phone);
    expect(first.isNewUser).toBe(true);
    stack.clock.advance(61);
    const second = await signIn(stack, phone);
    expect(second.isNewUser).toBe(false);
    expect(second.userId).toBe(first.userId);
    const login = await call(stack, 'GET', '/api/home', { token: second.accessToken });
    expect(login.status).toBe(200);
  });

  it('gives each user a unique publicId of User + 6 digits', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const phone = newPhone();
      await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
      const res = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: await lastCode(stack, phone) } });
      expect(res.body.user.publicId).toMatch(/^User\d{6}$/);
      ids.add(res.body.user.publicId);
    }
    expect(ids.size).toBe(5);
  });

  it('stores the phone exactly as sent: two spellings are two users', async () => {
    const a = await signIn(stack, '09125550001');
    const b = await signIn(stack, '+989125550001');
    expect(a.userId).not.toBe(b.userId);
    expect(b.isNewUser).toBe(true);
  });
});

describe('sessions and tokens', () => {
  const stack = useStack();

  it('refreshes an access token', async () => {
    const s = await signIn(stack);
    const res = await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } });
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(3600);
    expect((await call(stack, 'GET', '/api/home', { token: res.body.accessToken })).status).toBe(200);
  });

  it('expires access tokens after one hour', async () => {
    const s = await signIn(stack);
    stack.clock.advance(3599);
    expect((await call(stack, 'GET', '/api/home', { token: s.accessToken })).status).toBe(200);
    stack.clock.advance(2);
    const res = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_invalid');
  });

  it('a new login revokes earlier sessions at once, access tokens included', async () => {
    const phone = newPhone();
    const old = await signIn(stack, phone);
    stack.clock.advance(61);
    const fresh = await signIn(stack, phone);
    expect((await call(stack, 'GET', '/api/home', { token: old.accessToken })).status).toBe(401);
    expect((await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: old.refreshToken } })).status).toBe(401);
    expect((await call(stack, 'GET', '/api/home', { token: fresh.accessToken })).status).toBe(200);
  });

  it('logout ends the session: 204, then its tokens are refused', async () => {
    const s = await signIn(stack);
    const out = await call(stack, 'POST', '/api/auth/logout', { body: { refreshToken: s.refreshToken } });
    expect(out.status).toBe(204);
    expect(out.headers.get('cache-control')).toBe('private, no-store');
    expect((await call(stack, 'GET', '/api/home', { token: s.accessToken })).status).toBe(401);
    expect((await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } })).status).toBe(401);
  });

  it('refuses missing, malformed, forged, alg:none and other-key tokens', async () => {
    const s = await signIn(stack);
    const [header, payload] = s.accessToken.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const otherKey = await new SignJWT(JSON.parse(Buffer.from(payload!, 'base64url').toString()))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-key-another-secret-key'));
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: '999' })).toString('base64url')}.${s.accessToken.split('.')[2]}`;
    const missing = await call(stack, 'GET', '/api/home');
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('not_authenticated');
    for (const token of ['garbage', none, otherKey, tampered]) {
      const res = await call(stack, 'GET', '/api/home', { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('token_invalid');
    }
    const basic = await call(stack, 'GET', '/api/home', { headers: { authorization: `Basic ${s.accessToken}` } });
    expect(basic.status).toBe(401);
  });

  it('POST /api/auth/session does not exist', async () => {
    const res = await call(stack, 'POST', '/api/auth/session', { body: {} });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('sms provider switched off', () => {
  const stack = useStack({ env: { SMS_API_KEY: '' } });

  it('answers 503 sms_unavailable, with no fake success', async () => {
    const res = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: newPhone() } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('sms_unavailable');
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(stack.smsOutbox).toHaveLength(0);
  });
});

describe('fixed-code demo logins and the debug master code', () => {
  const stack = useStack({ env: { FIXED_OTP_LOGINS: '09120000001:4321,09120000002:123456,09120000003:7777' } });

  it('sends no SMS and always accepts the listed code', async () => {
    expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: '09120000001' } })).status).toBe(200);
    expect(stack.smsOutbox.filter((m) => m.phone === '09120000001')).toHaveLength(0);
    const a = await call(stack, 'POST', '/api/auth/login', { body: { phone: '09120000001', otp: '4321' } });
    expect(a.status).toBe(200);
    const b = await call(stack, 'POST', '/api/auth/login', { body: { phone: '09120000001', otp: '4321' } });
    expect(b.status).toBe(200);
  });

  it('still applies the wrong-guess limit', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(stack, 'POST', '/api/auth/login', { body: { phone: '09120000002', otp: '000000' } })).status).toBe(401);
    }
    expect((await call(stack, 'POST', '/api/auth/login', { body: { phone: '09120000002', otp: '123456' } })).status).toBe(401);
  });

  it('checks exactly five guesses of a burst at a fixed-code phone, then refuses the listed code until the lock expires', async () => {
    const phone = '09120000003';
    const guesses = Array.from({ length: 20 }, (_, i) => String(100000 + i));
    const results = await Promise.all(guesses.map((otp) => call(stack, 'POST', '/api/auth/login', { body: { phone, otp } })));
    expect(results.every((r) => r.status === 401 && r.body.code === 'otp_invalid')).toBe(true);
    // Five checked (four told "wrong", the fifth "too many"), fifteen refused unchecked.
    expect(results.filter((r) => /wrong or has expired/.test(r.body.detail))).toHaveLength(4);
    expect(results.filter((r) => /too many wrong guesses/i.test(r.body.detail))).toHaveLength(16);
    expect(await guessesChecked(stack, phone)).toBe(5);
    const locked = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: '7777' } });
    expect(locked.status).toBe(401);
    expect(locked.body.detail).toMatch(/too many wrong guesses/i);
    stack.clock.advance(301);
    expect((await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: '7777' } })).status).toBe(200);
  });

  it('leaves other phones on the normal path', async () => {
    const res = await call(stack, 'POST', '/api/auth/login', { body: { phone: newPhone(), otp: '4321' } });
    expect(res.status).toBe(401);
  });

  it('ignores DEBUG_MASTER_OTP without DEBUG=1', async () => {
    const res = await call(stack, 'POST', '/api/auth/login', { body: { phone: newPhone(), otp: '999999' } });
    expect(res.status).toBe(401);
  });
});

describe('debug master code with DEBUG=1', () => {
  const stack = useStack({ env: { DEBUG: '1', DEBUG_MASTER_OTP: '999999' } });

  it('accepts the master code for any phone', async () => {
    const res = await call(stack, 'POST', '/api/auth/login', { body: { phone: newPhone(), otp: '999999' } });
    expect(res.status).toBe(200);
  });
});

describe('login throttle', () => {
  const stack = useStack();

  it('allows 300 login attempts per IP per hour, then 429 with Retry-After', async () => {
    const bad = { phone: 'x' };
    for (let i = 0; i < 300; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => call(stack, 'POST', '/api/auth/login', { body: bad })));
      for (const res of batch) expect(res.status).toBe(400);
    }
    const over = await call(stack, 'POST', '/api/auth/login', { body: bad });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('throttled');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // other scopes are not affected
    expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: newPhone() } })).status).toBe(200);
    stack.clock.advance(3600);
    expect((await call(stack, 'POST', '/api/auth/login', { body: bad })).status).toBe(400);
  });
});

describe('startup refuses bad settings', () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'packages/local/src/main.ts'], {
      env: { ...process.env, ...env, PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('stops with a clear message on an invalid FIXED_OTP_LOGINS', () => {
    const result = start({ FIXED_OTP_LOGINS: '0912000:12' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/FIXED_OTP_LOGINS: "0912000:12" is not phone:code/);
  });

  it('refuses fixed logins and the debug code in production', () => {
    expect(start({ STAGE: 'production', FIXED_OTP_LOGINS: '09120000001:1234' }).stderr).toMatch(/FIXED_OTP_LOGINS must be empty/);
    expect(start({ STAGE: 'production', DEBUG: '1', DEBUG_MASTER_OTP: '123456' }).stderr).toMatch(
      /must not be set when STAGE is production/,
    );
  });
});
