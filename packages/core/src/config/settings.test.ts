import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSettings, parseFixedOtpLogins, SettingsError } from './settings';

describe('parseFixedOtpLogins', () => {
  it('parses phone:code pairs', () => {
    const logins = parseFixedOtpLogins(' 09120000001:1234, +989120000002:123456 ');
    expect([...logins]).toEqual([
      ['09120000001', '1234'],
      ['+989120000002', '123456'],
    ]);
  });

  it('is empty for an empty value', () => {
    expect(parseFixedOtpLogins('').size).toBe(0);
    expect(parseFixedOtpLogins(undefined).size).toBe(0);
  });

  it.each([
    '0912:1234',
    '09120000001:123',
    '09120000001:1234567',
    '09120000001-1234',
    '09120000001:12a4',
    '09120000001:1234,',
    '۰۹۱۲۰۰۰۰۰۰۱:1234',
  ])('refuses %s with a message naming the setting', (value) => {
    expect(() => parseFixedOtpLogins(value)).toThrow(SettingsError);
    expect(() => parseFixedOtpLogins(value)).toThrow(/FIXED_OTP_LOGINS/);
  });

  it('refuses a phone listed twice', () => {
    expect(() => parseFixedOtpLogins('09120000001:1234,09120000001:5678')).toThrow(/twice/);
  });
});

describe('loadSettings', () => {
  it('applies the defaults of infra/settings.ts', () => {
    const s = loadSettings({});
    expect(s.hearts).toEqual({ enforced: true, refillSeconds: 14400, max: 5 });
    expect(s.ai.dailyQuotaFree).toBe(2);
    expect(s.ai.maxConcurrentPerWorker).toBe(12);
    expect(s.port).toBe(3000);
    expect(s.internalServiceKey).toBeUndefined();
    expect(s.gateway.redirect).toBe('http://localhost:3000');
  });

  it('treats an empty string as off', () => {
    expect(loadSettings({ SMS_API_KEY: '' }).sms.apiKey).toBeUndefined();
  });

  it.each([
    [{ HEARTS_ENFORCED: 'maybe' }, /HEARTS_ENFORCED/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ AI_MAX_CONCURRENT_PER_WORKER: '0' }, /at least 1/],
    [{ FRONTEND_URL: 'not a url' }, /FRONTEND_URL/],
    [{ DEBUG: '1', DEBUG_MASTER_OTP: '12' }, /4 to 6 digits/],
  ])('refuses bad values: %o', (env, message) => {
    expect(() => loadSettings(env)).toThrow(message);
  });

  it('refuses debug codes and fixed logins in production, but not elsewhere', () => {
    expect(() => loadSettings({ STAGE: 'production', FIXED_OTP_LOGINS: '09120000001:1234' })).toThrow(/FIXED_OTP_LOGINS must be empty/);
    expect(() => loadSettings({ STAGE: 'production', DEBUG_MASTER_OTP: '123456' })).toThrow(/production/);
    expect(() => loadSettings({ STAGE: 'production', DEBUG: '1' })).toThrow(/production/);
    expect(loadSettings({ STAGE: 'dev', FIXED_OTP_LOGINS: '09120000001:1234' }).fixedOtpLogins.size).toBe(1);
  });

  it('takes the bench throttle override anywhere but in production', () => {
    expect(() => loadSettings({ STAGE: 'production', BENCH_THROTTLE_LIMIT: '1000000' })).toThrow(/BENCH_THROTTLE_LIMIT must not be set/);
    expect(loadSettings({ STAGE: 'dev', BENCH_THROTTLE_LIMIT: '1000000' }).benchThrottleLimit).toBe(1_000_000);
    expect(loadSettings({}).benchThrottleLimit).toBeUndefined();
    expect(() => loadSettings({ BENCH_THROTTLE_LIMIT: '0' })).toThrow(/at least 1/);
  });

  it('honours DEBUG_MASTER_OTP only with DEBUG=1', () => {
    expect(loadSettings({ DEBUG_MASTER_OTP: '123456' }).debugMasterOtp).toBeUndefined();
    expect(loadSettings({ DEBUG: '1', DEBUG_MASTER_OTP: '123456' }).debugMasterOtp).toBe('123456');
  });

  it('derives the marketplace redirect URI from PUBLIC_BASE_URL and refuses another one (spec Authentication 9)', () => {
    const base = { PUBLIC_BASE_URL: 'https://api.example/' };
    expect(loadSettings(base).marketplace.redirectUri).toBe('https://api.example/api/payment/marketplace/verify');
    expect(
      loadSettings({ ...base, MARKETPLACE_REDIRECT_URI: 'https://api.example/api/payment/marketplace/verify' }).marketplace.redirectUri,
    ).toBe('https://api.example/api/payment/marketplace/verify');
    expect(() => loadSettings({ ...base, MARKETPLACE_REDIRECT_URI: 'https://evil.example/api/payment/marketplace/verify' })).toThrow(
      /MARKETPLACE_REDIRECT_URI must equal \{PUBLIC_BASE_URL\}\/api\/payment\/marketplace\/verify \(https:\/\/api\.example/,
    );
    expect(() => loadSettings({ MARKETPLACE_REDIRECT_URI: 'https://api.example/api/payment/marketplace/verify' })).toThrow(
      /PUBLIC_BASE_URL is unset/,
    );
    expect(loadSettings({}).marketplace).toMatchObject({ redirectUri: undefined, authorizeWindowHours: 72, renewalWindowHours: 24 });
  });

  it('takes MARKETPLACE_PUBLIC_KEY only as a base64 X.509 RSA public key', () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(loadSettings({ MARKETPLACE_PUBLIC_KEY: key }).marketplace.publicKey).toBe(key);
    expect(loadSettings({ MARKETPLACE_PUBLIC_KEY: '' }).marketplace.publicKey).toBeUndefined();
    expect(() => loadSettings({ MARKETPLACE_PUBLIC_KEY: 'MIIB-not-a-key' })).toThrow(/MARKETPLACE_PUBLIC_KEY is not base64/);
    expect(() => loadSettings({ MARKETPLACE_PUBLIC_KEY: key.slice(0, 40) })).toThrow(SettingsError);
  });
});
