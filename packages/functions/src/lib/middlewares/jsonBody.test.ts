import { DomainError } from '@mathisland/core';
import { describe, expect, it } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { DEFAULT_MAX_BODY_BYTES, jsonBody } from './jsonBody';

const parsed = async (body: string | undefined, options: { isBase64Encoded?: boolean; maxBytes?: number } = {}) =>
  (await runPhase(jsonBody({ maxBytes: options.maxBytes }), testRequest({ body, isBase64Encoded: options.isBase64Encoded }))).event
    .body as unknown;

describe('jsonBody', () => {
  it('leaves no body, or an empty one, undefined', async () => {
    expect(await parsed(undefined)).toBeUndefined();
    expect(await parsed('')).toBeUndefined();
  });

  it('parses JSON whatever the content type, and base64 bodies', async () => {
    expect(await parsed('{"phone":"09121234567","n":[1,2]}')).toEqual({ phone: '09121234567', n: [1, 2] });
    expect(await parsed(Buffer.from('{"a":"ب"}').toString('base64'), { isBase64Encoded: true })).toEqual({ a: 'ب' });
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    await expect(parsed('{"a":')).rejects.toMatchObject({ code: 'invalid_json' });
  });

  it('refuses a body over the limit with 413 body_too_large, counting bytes, not characters', async () => {
    await expect(parsed(`"${'x'.repeat(DEFAULT_MAX_BODY_BYTES)}"`)).rejects.toMatchObject({ code: 'body_too_large' });
    await expect(parsed(JSON.stringify('ب'.repeat(6)), { maxBytes: 12 })).rejects.toBeInstanceOf(DomainError);
    expect(await parsed(JSON.stringify('b'.repeat(6)), { maxBytes: 12 })).toBe('bbbbbb');
    const big = Buffer.from(JSON.stringify('x'.repeat(40))).toString('base64');
    await expect(parsed(big, { isBase64Encoded: true, maxBytes: 32 })).rejects.toMatchObject({ code: 'body_too_large' });
  });

  it('keeps __proto__ and constructor as own data keys of null-prototype objects', async () => {
    const body = (await parsed('{"__proto__":{"admin":true},"constructor":1,"nested":{"x":1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(Object.getPrototypeOf(body.nested)).toBeNull();
    expect(Object.keys(body)).toEqual(['__proto__', 'constructor', 'nested']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
