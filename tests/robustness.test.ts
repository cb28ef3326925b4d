/**
 * DESIGN §7 across the whole manifest: bad input never yields a 500 or an HTML page. Every route of
 * infra/routes.ts gets malformed JSON, a JSON value of the wrong shape, wrong field types, unknown fields, a
 * non-ASCII id and nonsense query values, signed in as a learner (and with the internal key on internal
 * routes), and must answer a 4xx JSON error body with a `code`, and `Cache-Control: private, no-store`.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../infra/routes';
import { staffSession } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const INTERNAL = { 'x-internal-key': 'test-internal-key-0123456789' };

const badBodies: unknown[] = [
  '{"a":',
  '[]',
  '"text"',
  'null',
  { answer: { nested: true }, text: 12, subject: [], userQuestion: 5, extra: 1 },
];
const badIds = ['۱۲', '12abc', '-1', '99999999999999999999999'];
const badQuery = '?period=monthly&limit=-5&cursor=%25%25%25&gradeId=%DB%B1&Authority=&Status=maybe';

describe('bad input on every route', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0) });

  it('answers a 4xx JSON error, never a 500 or HTML', async () => {
    const learner = await signIn(stack);
    const failures: string[] = [];
    for (const route of routes) {
      const headers = route.auth === 'internal' ? INTERNAL : {};
      const token = route.auth === 'user' ? learner.accessToken : undefined;
      const paths = route.path.includes('{id}') ? badIds.map((id) => route.path.replace('{id}', id)) : [route.path];
      for (const path of paths) {
        const bodies = route.method === 'GET' || route.method === 'DELETE' ? [undefined] : badBodies;
        for (const body of bodies) {
          const res = await call(stack, route.method, `${path}${badQuery}`, { body, token, headers });
          const label = `${route.method} ${path} ${JSON.stringify(body) ?? ''} → ${res.status}`;
          const isJsonError =
            res.status >= 400 &&
            res.status < 500 &&
            (res.headers.get('content-type') ?? '').startsWith('application/json') &&
            typeof res.body?.code === 'string' &&
            res.headers.get('cache-control') === 'private, no-store';
          // A few routes take any query or body as a valid request (a list ignores unknown query values, an
          // endpoint without a body ignores none): they must still answer a 2xx/3xx, not fail.
          const fineAnyway = res.status < 400 && res.headers.get('cache-control') === 'private, no-store';
          if (!isJsonError && !fineAnyway) failures.push(`${label} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * DESIGN §11 "Any JSON key is just data" on every route of the manifest that takes a body: a key named like an
 * Object.prototype member (`constructor`, `toString`, `hasOwnProperty`, `__proto__`, `valueOf`) is an unknown
 * field, 400 `validation_error` naming it in `fields`, signed in as each route needs so that validation is what
 * answers; on every route that reads a query string, such parameters never make a 5xx.
 */
describe('JSON keys named like Object.prototype members', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0) });
  const hostileKeys = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'];

  it('are unknown fields (400 validation_error naming them) on every route with a body', async () => {
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    // A learner per route, so that routes with small throttles (account deletion: 10 an hour) still validate.
    const credentials = async (auth: string): Promise<{ token?: string; headers: Record<string, string> }> =>
      auth === 'user'
        ? { token: (await signIn(stack)).accessToken, headers: {} }
        : auth === 'admin'
          ? { headers: { cookie } }
          : auth === 'internal'
            ? { headers: INTERNAL }
            : { headers: {} };
    const failures: string[] = [];
    const bodyRoutes = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
    expect(bodyRoutes.length).toBeGreaterThan(20);
    for (const route of bodyRoutes) {
      const path = route.path.replace('{id}', '1');
      const auth = await credentials(route.auth);
      // One body holding every key (three value types), so that small throttles are not reached.
      for (const value of ['1', '{}', '"x"']) {
        const body = `{${hostileKeys.map((k) => `"${k}":${value}`).join(',')}}`;
        const res = await call(stack, route.method, path, { body, ...auth });
        const unnamed = hostileKeys.filter((k) => !(res.body?.fields && Object.hasOwn(res.body.fields, k)));
        if (res.status !== 400 || res.body?.code !== 'validation_error' || unnamed.length) {
          failures.push(`${route.method} ${path} ${body} → ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('never make a 5xx as query parameters or header names', async () => {
    const learner = await signIn(stack);
    const query = hostileKeys.map((k) => `${k}=1`).join('&');
    const failures: string[] = [];
    for (const route of routes) {
      const path = `${route.path.replace('{id}', '1')}?${query}`;
      const res = await call(stack, route.method, path, {
        token: learner.accessToken,
        headers: { constructor: 'x', tostring: 'y', 'x-internal-key': 'test-internal-key-0123456789' },
      });
      if (res.status >= 500 || res.headers.get('cache-control') !== 'private, no-store')
        failures.push(`${route.method} ${path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});
