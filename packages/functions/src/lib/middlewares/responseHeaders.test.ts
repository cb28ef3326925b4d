import { describe, expect, it } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { responseHeaders } from './responseHeaders';

describe('responseHeaders', () => {
  it('adds no-store, nosniff and a JSON content type, lower-casing the route’s own headers', async () => {
    const request = testRequest();
    request.response = { statusCode: 200, body: '{}', headers: { 'Retry-After': '3', 'Cache-Control': 'public' } };
    await runPhase(responseHeaders(), request, 'after');
    expect(request.response.headers).toEqual({
      'retry-after': '3',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json; charset=utf-8',
    });
  });

  it('keeps a content type the route set, and sets none on an empty body', async () => {
    const text = testRequest();
    text.response = { statusCode: 200, body: 'hi', headers: { 'Content-Type': 'text/html' } };
    await runPhase(responseHeaders(), text, 'after');
    expect(text.response.headers?.['content-type']).toBe('text/html');
    const empty = testRequest();
    empty.response = { statusCode: 302, headers: { location: '/x' } };
    await runPhase(responseHeaders(), empty, 'after');
    expect(empty.response.headers).toEqual({ location: '/x', 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' });
  });

  it('applies to error answers too', async () => {
    const request = testRequest();
    request.response = { statusCode: 429, body: '{"code":"throttled"}' };
    await runPhase(responseHeaders(), request, 'onError');
    expect(request.response.headers?.['cache-control']).toBe('private, no-store');
  });
});
