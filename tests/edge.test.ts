/**
 * Who is calling behind CloudFront (issue 22 §1; DESIGN §12), through the local runtime, which plays the edge: every
 * request gets the secret origin header and `CloudFront-Viewer-Address` from its socket, and a client's own copies of
 * those headers (or `X-Forwarded-For`) change nothing. The stack also listens as the bare origin (`originUrl`, the
 * execute-api host of a deployed stage): there a request without the secret is 403 `forbidden_origin` in every
 * function, the tutor's stream included, and one with it (as CloudFront sends them) is counted under the viewer
 * address it names, an IPv6 address by its /64.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../infra/edge';
import { endpointGroups, routes } from '../infra/routes';
import { callFrom } from './support/from';
import { type ApiResponse, call, signIn, type TestStack, useStack } from './support/stack';

const LIMIT = 3;

/** One request from local address `from` to `base`, with `headers` as given. */
const send = (
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<ApiResponse> => callFrom(base, method, path, options);

/** Headers a client forges to pass for someone else, different on every call. */
let forged = 0;
const spoofed = (): Record<string, string> => {
  forged++;
  return {
    [ORIGIN_VERIFY_HEADER]: `guess-${forged}`,
    [VIEWER_ADDRESS_HEADER]: `203.0.113.${forged % 250}:443`,
    'x-forwarded-for': `198.51.100.${forged % 250}, 192.0.2.1`,
  };
};

/** What CloudFront sends the origin for a viewer at `address`. */
const asCloudFront = (stack: TestStack, address: string): Record<string, string> => ({
  [ORIGIN_VERIFY_HEADER]: stack.deps.settings.originVerify[0] as string,
  [VIEWER_ADDRESS_HEADER]: address,
});

const statuses = async (n: number, request: () => Promise<ApiResponse>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await request()).status);
  return out;
};

describe(`the local edge (limit ${LIMIT} per window)`, () => {
  const stack = useStack({ env: { BENCH_THROTTLE_LIMIT: String(LIMIT) }, exposeOrigin: true });

  it('counts a client that forges the edge headers under its own address: it stays in its own limit', async () => {
    stack.clock.advance(3600);
    const plans = () => send(stack.baseUrl, 'GET', '/api/plans', { headers: spoofed() });
    expect(await statuses(LIMIT + 2, plans)).toEqual([...new Array(LIMIT).fill(200), 429, 429]);
    // Another address has its whole window.
    expect((await send(stack.baseUrl, 'GET', '/api/plans', { from: '127.0.0.2', headers: spoofed() })).status).toBe(200);
  });

  it('names the socket’s address, never a forged one, in the health details', async () => {
    const key = { 'x-internal-key': 'test-internal-key-0123456789' };
    const direct = await send(stack.baseUrl, 'GET', '/api/health', { from: '127.0.0.3', headers: { ...key, ...spoofed() } });
    expect(direct.status).toBe(200);
    expect(direct.body.clientIp).toBe('127.0.0.3');
  });

  it('keeps sign-in code requests, sign-ins and staff sign-ins per address whatever the client claims', async () => {
    stack.clock.advance(3600);
    const phone = '09121110000';
    const otp = () => send(stack.baseUrl, 'POST', '/api/auth/otp/request', { headers: spoofed(), body: { phone } });
    const login = () => send(stack.baseUrl, 'POST', '/api/auth/login', { headers: spoofed(), body: { phone, otp: '000000' } });
    const admin = () =>
      send(stack.baseUrl, 'POST', '/api/admin/login', {
        headers: spoofed(),
        body: { username: 'nobody-here', password: 'wrong-password' },
      });
    expect((await statuses(LIMIT + 1, login)).at(-1)).toBe(429);
    expect((await statuses(LIMIT + 1, admin)).at(-1)).toBe(429);
    const codes = await statuses(LIMIT + 1, otp);
    expect(codes.at(-1)).toBe(429);
    // The same requests from another address are counted apart.
    expect((await send(stack.baseUrl, 'POST', '/api/auth/login', { from: '127.0.0.4', body: { phone, otp: '000000' } })).status).toBe(401);
  });

  it('refuses a direct hit on the origin in every function, the tutor’s stream included: 403 forbidden_origin', async () => {
    stack.clock.advance(3600);
    const origin = stack.originUrl as string;
    const session = await signIn(stack);
    const samples = endpointGroups.flatMap((group) => routes.find((r) => r.group === group) ?? []);
    expect(samples.map((r) => r.group)).toEqual(endpointGroups.filter((g) => g !== 'fallback'));
    for (const route of samples) {
      const path = route.path.replace(/\{[^}]+\}/g, '1');
      for (const headers of [{}, spoofed(), { [ORIGIN_VERIFY_HEADER]: '' }]) {
        const res = await send(origin, route.method, path, {
          headers: { authorization: `Bearer ${session.accessToken}`, ...headers },
          ...(route.method === 'GET' ? {} : { body: {} }),
        });
        expect([route.path, res.status, res.body]).toEqual([route.path, 403, { code: 'forbidden_origin', detail: expect.any(String) }]);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      }
    }
    // An unknown path (API Gateway's $default, the fallback function) too.
    expect((await send(origin, 'GET', '/api/no-such-route')).body.code).toBe('forbidden_origin');
    // The same learner's requests through the edge work.
    expect((await call(stack, 'GET', '/api/home', { token: session.accessToken })).status).toBe(200);
  });

  it('trusts CloudFront-Viewer-Address only with the secret, and counts an IPv6 viewer by its /64', async () => {
    stack.clock.advance(3600);
    const origin = stack.originUrl as string;
    const offers = (address: string) => send(origin, 'GET', '/api/offers', { headers: asCloudFront(stack, address) });
    expect(await statuses(LIMIT, () => offers('2001:db8:1:2:aaaa::1:51000'))).toEqual(new Array(LIMIT).fill(200));
    // Another host of the same /64 is the same subscriber; the next /64 and an IPv4 viewer are others.
    expect((await offers('2001:db8:1:2:bbbb::9:443')).status).toBe(429);
    expect((await offers('2001:db8:1:3::1:443')).status).toBe(200);
    expect((await offers('198.51.100.20:443')).status).toBe(200);
    const health = await send(origin, 'GET', '/api/health', {
      headers: { ...asCloudFront(stack, '198.51.100.20:40000'), 'x-internal-key': 'test-internal-key-0123456789' },
    });
    expect(health.body.clientIp).toBe('198.51.100.20');
  });

  it('answers the payment pay link and the gateway callback per viewer address', async () => {
    stack.clock.advance(3600);
    const origin = stack.originUrl as string;
    const pay = (address: string) => send(origin, 'GET', '/api/payment/orders/999999/pay', { headers: asCloudFront(stack, address) });
    const callback = (address: string) =>
      send(origin, 'GET', '/api/payment/gateway/callback?Authority=A0000000000000000000000000000000001&Status=NOK', {
        headers: asCloudFront(stack, address),
      });
    expect((await statuses(LIMIT + 1, () => pay('198.51.100.30:1'))).at(-1)).toBe(429);
    expect((await pay('198.51.100.31:1')).status).not.toBe(429);
    expect((await statuses(LIMIT + 1, () => callback('198.51.100.30:1'))).at(-1)).toBe(429);
    expect((await callback('198.51.100.31:1')).status).not.toBe(429);
  });
});

describe('a rotation of the origin secret', () => {
  const stack = useStack({
    env: { ORIGIN_VERIFY_SECRET: 'origin-secret-new-0123456789', ORIGIN_VERIFY_PREVIOUS: 'origin-secret-old-0123456789' },
    exposeOrigin: true,
  });

  it('accepts the current and the previous value at the origin, and nothing else', async () => {
    const origin = stack.originUrl as string;
    const health = (value: string) => send(origin, 'GET', '/api/health', { headers: { [ORIGIN_VERIFY_HEADER]: value } });
    expect((await health('origin-secret-new-0123456789')).status).toBe(200);
    expect((await health('origin-secret-old-0123456789')).status).toBe(200);
    for (const wrong of ['origin-secret-new-012345678', 'origin-secret-new-01234567890', 'ORIGIN-SECRET-NEW-0123456789', ''])
      expect((await health(wrong)).status, wrong).toBe(403);
    // The local edge sends the current value.
    expect((await call(stack, 'GET', '/api/health')).status).toBe(200);
  });
});
