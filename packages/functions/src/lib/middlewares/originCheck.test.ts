import { describe, expect, it } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { UNKNOWN_VIEWER } from '../viewer';
import { originCheck } from './originCheck';

const env = { ORIGIN_VERIFY_SECRET: 'current-secret-value', ORIGIN_VERIFY_PREVIOUS: 'previous-secret-value' };
const run = (headers: Record<string, string>, settings: Record<string, string> = env) =>
  runPhase(originCheck(), testRequest({ headers, env: settings }));

describe('originCheck', () => {
  it('accepts the current and the previous secret, and takes the viewer from CloudFront-Viewer-Address', async () => {
    const request = await run({ 'X-Origin-Verify': 'current-secret-value', 'CloudFront-Viewer-Address': '198.51.100.7:4431' });
    expect(request.context.viewer).toEqual({ ip: '198.51.100.7', throttleKey: 'ip:198.51.100.7' });
    await expect(run({ 'x-origin-verify': 'previous-secret-value' })).resolves.toBeDefined();
  });

  it.each([
    ['without the header', {}],
    ['with another value', { 'x-origin-verify': 'current-secret-valuf' }],
    ['with a prefix of the secret', { 'x-origin-verify': 'current' }],
  ])('refuses a request %s with 403 forbidden_origin, before trusting its viewer address', async (_, headers) => {
    const request = testRequest({ env, headers: { ...headers, 'cloudfront-viewer-address': '198.51.100.7:1' } });
    await expect(runPhase(originCheck(), request)).rejects.toMatchObject({ code: 'forbidden_origin' });
    expect(request.context.viewer).toBeUndefined();
  });

  it('refuses everything when no secret is configured (fail closed)', async () => {
    await expect(run({ 'x-origin-verify': '' }, {})).rejects.toMatchObject({ code: 'forbidden_origin' });
  });

  it('counts a request through the edge without a usable viewer address as the unknown viewer', async () => {
    const request = await run({ 'x-origin-verify': 'current-secret-value', 'x-forwarded-for': '203.0.113.9' });
    expect(request.context.viewer).toEqual(UNKNOWN_VIEWER);
  });
});
