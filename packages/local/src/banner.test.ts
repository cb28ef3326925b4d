/**
 * The startup banner (issue 29 §4): it lists a provider's fake page only while that provider is on, names a real
 * provider's address, and says plainly which providers an empty setting switched off.
 */
import { buildDeps, loadSettings } from '@mathisland/core';
import { describe, expect, it } from 'vitest';
import { banner, bannerLinks } from './banner';

const base = 'http://localhost:3000';

/** The stack's settings as `startLocalStack` fills them for the fakes, with `env` over them. */
function stackWith(env: Record<string, string>) {
  const settings = loadSettings({
    SECRET_KEY: 'banner-test-secret-key-0123456789abcdef',
    SMS_API_KEY: 'local-sms-api-key',
    SMS_BASE_URL: `${base}/_local/sms`,
    GATEWAY_MERCHANT_ID: '00000000-0000-4000-8000-00000000cafe',
    GATEWAY_BASE_URL: `${base}/_local/gateway`,
    OPENAI_API_KEY: 'local-llm-api-key',
    OPENAI_BASE_URL: `${base}/_local/llm/v1`,
    MARKETPLACE_BASE_URL: `${base}/_local/marketplace`,
    MARKETPLACE_PACKAGE_NAME: 'ir.mathisland.app',
    MARKETPLACE_API_SECRET: 'local-marketplace-secret',
    PUBLIC_BASE_URL: base,
    ...env,
  });
  return { baseUrl: base, deps: buildDeps(settings) };
}

const labels = (stack: ReturnType<typeof stackWith>) => bannerLinks(stack).map(([label]) => label);

describe('startup banner', () => {
  it('lists every fake that is on, and nothing as off', () => {
    const stack = stackWith({});
    expect(labels(stack)).toEqual(['API', 'staff panel', 'SMS outbox', 'gateway', 'marketplace', 'tutor model', 'frontend']);
    expect(banner(stack)).not.toMatch(/OFF|switched off/);
  });

  it('leaves out what an empty setting switched off and says so plainly', () => {
    const stack = stackWith({ SMS_API_KEY: '', GATEWAY_MERCHANT_ID: '', OPENAI_API_KEY: '', MARKETPLACE_API_SECRET: '' });
    expect(labels(stack)).toEqual(['API', 'staff panel', 'frontend']);
    const text = banner(stack);
    expect(text).not.toContain('/_local/sms/outbox');
    expect(text).not.toContain('/_local/gateway/');
    expect(text).toContain('switched off:');
    expect(text).toMatch(/SMS +OFF: SMS_API_KEY is empty: .*503 sms_unavailable/);
    expect(text).toMatch(/gateway +OFF: GATEWAY_MERCHANT_ID is empty: .*503 gateway_unavailable/);
    expect(text).toMatch(/tutor model +OFF: OPENAI_API_KEY is empty: .*503 assistant_unavailable/);
    expect(text).toMatch(/marketplace +OFF: /);
  });

  it('names a real provider by its address instead of a fake page', () => {
    const stack = stackWith({ SMS_API_KEY: 'real-key', SMS_BASE_URL: 'https://api.kavenegar.com' });
    expect(labels(stack)).not.toContain('SMS outbox');
    expect(banner(stack)).toMatch(/SMS +real provider at https:\/\/api\.kavenegar\.com/);
  });
});
