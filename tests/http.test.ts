/**
 * The request pipeline every endpoint group shares (DESIGN §3, §7; spec "What the service does" 9, 11):
 * headers, the error body, body limits, ids, the request log line, unexpected exceptions.
 */
import { logger } from '@mathisland/core';
import { ADMIN_COOKIE } from '@mathisland/core/admin';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../infra/routes';
import { LOCAL_GATEWAY_MERCHANT_ID } from '../packages/local/src/stack';
import { staffSession } from './support/payments';
import { call, signIn, startTestStack, type TestStack, useStack } from './support/stack';

/** The log lines (stdout, level INFO) written while `act` runs, and the request lines among them, parsed. */
async function logged(act: () => Promise<void>): Promise<{ lines: string[]; requests: any[] }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    lines.push(String(chunk));
    return true;
  });
  logger.setLogLevel('INFO');
  try {
    await act();
  } finally {
    logger.setLogLevel('WARN');
    spy.mockRestore();
  }
  const entries = lines
    .flatMap((l) => l.split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { lines, requests: entries.filter((e) => e.message === 'request') };
}

describe('request pipeline', () => {
  let stack: TestStack;
  let token: string;
  beforeAll(async () => {
    stack = await startTestStack();
    token = (await signIn(stack)).accessToken;
  });
  afterAll(() => stack?.close());

  const expectErrorBody = (res: { headers: Headers; body: any }, status: number, code: string, actual: number) => {
    expect(actual).toBe(status);
    expect(res.body).toMatchObject({ code, detail: expect.any(String) });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  };

  it('sends Cache-Control: private, no-store on successes and every kind of error', async () => {
    const responses = await Promise.all([
      call(stack, 'GET', '/api/health'),
      call(stack, 'GET', '/api/home', { token }),
      call(stack, 'GET', '/api/curriculum/grades'),
      call(stack, 'GET', '/api/nope'),
      call(stack, 'DELETE', '/api/home'),
      call(stack, 'GET', '/api/home'),
    ]);
    for (const res of responses) expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers unknown routes with 404 not_found and wrong methods with 405 and Allow', async () => {
    const missing = await call(stack, 'GET', '/api/does-not-exist');
    expectErrorBody(missing, 404, 'not_found', missing.status);
    const wrong = await call(stack, 'PUT', '/api/nodes/4001/quiz/complete');
    expectErrorBody(wrong, 405, 'method_not_allowed', wrong.status);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    for (const body of ['{', '{"phone":', 'not json', '[1,2']) {
      const res = await call(stack, 'POST', '/api/auth/otp/request', { body });
      expectErrorBody(res, 400, 'invalid_json', res.status);
    }
    // Well-formed JSON with a `__proto__` key is JSON: the key is an unknown field (DESIGN §11), and nothing
    // reaches a prototype (the local server runs in this process).
    const proto = await call(stack, 'POST', '/api/auth/otp/request', { body: '{"__proto__":{"x":1},"phone":"09120000001"}' });
    expectErrorBody(proto, 400, 'validation_error', proto.status);
    expect(Object.entries(proto.body.fields)).toEqual([['__proto__', ['Unknown field']]]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const plain = await call(stack, 'POST', '/api/auth/otp/request', { body: '{', headers: { 'content-type': 'text/plain' } });
    expect(plain.body.code).toBe('invalid_json');
  });

  it('treats a cookie with a malformed percent escape as no cookie (401 on admin routes, never a 500)', async () => {
    const adminRoutes = routes.filter((r) => r.auth === 'admin' || r.path.startsWith('/api/admin/'));
    expect(adminRoutes.length).toBeGreaterThan(3);
    for (const value of ['%E0%A4%A', '%', '%zz', 'abc%']) {
      for (const route of adminRoutes) {
        const res = await call(stack, route.method, route.path.replace('{id}', '1'), {
          headers: { cookie: `theme=%%; ${ADMIN_COOKIE}=${value}` },
          ...(route.method === 'POST' ? { body: route.path === '/api/admin/login' ? { username: 'x', password: 'y' } : {} } : {}),
        });
        expect(res.status, `${route.method} ${route.path} ${value}: ${res.text}`).toBeLessThan(500);
        if (route.auth === 'admin') expectErrorBody(res, 401, 'not_authenticated', res.status);
      }
    }
  });

  it('refuses bodies over 64 KiB with 413 body_too_large', async () => {
    const res = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: 'x'.repeat(70 * 1024) } });
    expectErrorBody(res, 413, 'body_too_large', res.status);
  });

  it('refuses wrong types and unknown fields with the fields that are wrong', async () => {
    const types = await call(stack, 'POST', '/api/questions/400121/answer', { token, body: { answer: { nested: true } } });
    expectErrorBody(types, 400, 'validation_error', types.status);
    expect(Object.keys(types.body.fields)).toContain('answer');
    const unknown = await call(stack, 'POST', '/api/questions/400121/answer', { token, body: { answer: '1', correct: true } });
    expectErrorBody(unknown, 400, 'validation_error', unknown.status);
    expect(unknown.body.fields).toEqual({ correct: ['Unknown field'] });
    const notObject = await call(stack, 'POST', '/api/nodes/4001/quiz/complete', { token, body: [100] });
    expectErrorBody(notObject, 400, 'validation_error', notObject.status);
    const array = await call(stack, 'POST', '/api/auth/login', { body: [] });
    expect(array.status).toBe(400);
  });

  it('refuses ids with non-ASCII digits or non-digits with 400 invalid_id', async () => {
    for (const id of ['۴۰۰۱', '٤٠٠١', '4001x', '-1', '1e3', '४']) {
      const res = await call(stack, 'GET', `/api/nodes/${encodeURIComponent(id)}/questions`);
      expectErrorBody(res, 400, 'invalid_id', res.status);
    }
    const answer = await call(stack, 'POST', `/api/questions/${encodeURIComponent('۴۰۰۱۲۱')}/answer`, { token, body: { answer: 'a' } });
    expect(answer.body.code).toBe('invalid_id');
    const home = await call(stack, 'GET', `/api/home?gradeId=${encodeURIComponent('۴')}`, { token });
    expect(home.body.code).toBe('invalid_id');
  });

  it('logs one JSON line per request with method, path, status, durationMs and userId, and nothing secret', async () => {
    const { lines, requests } = await logged(async () => {
      await call(stack, 'GET', '/api/home', { token });
      await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: '09129998877' } });
    });
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/home', status: 200, userId: expect.any(Number) });
    expect(requests[0].durationMs).toEqual(expect.any(Number));
    expect(requests[1]).toMatchObject({ method: 'POST', path: '/api/auth/otp/request', status: 200 });
    const all = lines.join('');
    expect(all).not.toContain(token);
    expect(all).not.toContain('09129998877');
    expect(all).not.toContain(stack.smsOutbox.at(-1)!.token);
  });

  it('names the staff member (staffId) in the log line of an admin request, and no user', async () => {
    const { cookie, username } = await staffSession(stack, { isSuperuser: true });
    const { lines, requests } = await logged(async () => {
      await call(stack, 'GET', '/api/admin/orders', { headers: { cookie } });
      await call(stack, 'POST', '/api/admin/orders/999999/cancel', { headers: { cookie }, body: {} });
      await call(stack, 'GET', '/api/admin/orders');
    });
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/admin/orders', status: 200, staffId: username });
    expect(requests[1]).toMatchObject({ method: 'POST', path: '/api/admin/orders/999999/cancel', status: 404, staffId: username });
    expect(requests[2]).toMatchObject({ path: '/api/admin/orders', status: 401 });
    expect(requests[2]).not.toHaveProperty('staffId');
    expect(lines.join('')).not.toContain(cookie.split('=')[1]);
  });

  it('turns an unexpected exception into a JSON 500 without a traceback in the body', async () => {
    const content = stack.deps.content;
    const original = content.get;
    content.get = async () => {
      throw new TypeError('boom at secret place');
    };
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const res = await call(stack, 'GET', '/api/curriculum/grades');
      expectErrorBody(res, 500, 'server_error', res.status);
      expect(res.text).not.toContain('boom');
      expect(res.text).not.toMatch(/at .*\.ts/);
    } finally {
      content.get = original;
      errors.mockRestore();
    }
  });

  it('answers 503 database_busy with Retry-After when the pool has no free slot in time', async () => {
    const pool = stack.deps.db.pool;
    const original = { ...pool.options };
    Object.assign(pool.options, { max: 0, waitMs: 50 });
    try {
      const res = await call(stack, 'GET', '/api/home', { token });
      expectErrorBody(res, 503, 'database_busy', res.status);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      Object.assign(pool.options, original);
    }
  });
});

describe('health', () => {
  const stack = useStack({ env: { FIXED_OTP_LOGINS: '09120000009:1234' } });

  it('answers only { status } without the key, and with a wrong key', async () => {
    for (const headers of [{}, { 'x-internal-key': 'wrong' }, { 'x-internal-key': '' }] as Record<string, string>[]) {
      const res = await call(stack, 'GET', '/api/health', { headers });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('gives the details with the correct key, and no secret', async () => {
    const res = await call(stack, 'GET', '/api/health', { headers: { 'x-internal-key': 'test-internal-key-0123456789' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      database: { ok: true },
      unappliedMigrations: [],
      counts: { grades: 2, lessons: expect.any(Number), questions: expect.any(Number) },
      integrations: { sms: true, gateway: true, marketplace: true, marketplaceDynamicPrice: false, ai: true },
      clientIp: '127.0.0.1',
      dbPool: { max: 8, inFlight: expect.any(Number), waiting: 0 },
      aiConcurrency: { max: 12 },
      cache: { content: { loaded: true } },
    });
    expect(res.body.counts.questions).toBeGreaterThanOrEqual(4 * 56);
    expect(res.body.warnings).toContain('FIXED_OTP_LOGINS lists 1 demo phone(s)');
    expect(res.body).toHaveProperty('offsiteBackup');
    const text = res.text;
    for (const secret of [
      stack.deps.settings.secretKey!,
      'test-internal-key-0123456789',
      '1234',
      'local-sms-api-key',
      LOCAL_GATEWAY_MERCHANT_ID,
      'local-llm-api-key',
      stack.deps.settings.marketplace.apiSecret!,
      'local-marketplace-client-secret',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('answers 503 with status error when migrations are missing', async () => {
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { migrations, migrationKey, applyMigrations } = await import('@mathisland/core/migrations');
    await stack.deps.db.doc.send(new DeleteCommand({ TableName: stack.deps.db.tableName, Key: migrationKey(migrations[0]!.id) }));
    try {
      const plain = await call(stack, 'GET', '/api/health');
      expect(plain.status).toBe(503);
      expect(plain.body).toEqual({ status: 'error' });
      expect(Number(plain.headers.get('retry-after'))).toBeGreaterThan(0);
      const detailed = await call(stack, 'GET', '/api/health', { headers: { 'x-internal-key': 'test-internal-key-0123456789' } });
      expect(detailed.status).toBe(503);
      expect(Number(detailed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(detailed.body.unappliedMigrations).toEqual([migrations[0]!.id]);
    } finally {
      await applyMigrations(stack.deps.db);
    }
  });
});

describe('health without an internal key configured', () => {
  const stack = useStack({ env: { INTERNAL_SERVICE_KEY: undefined } });

  it('never gives details: there is no default key', async () => {
    delete process.env.INTERNAL_SERVICE_KEY;
    for (const key of ['', 'undefined', 'null', 'changeme']) {
      const res = await call(stack, 'GET', '/api/health', { headers: { 'x-internal-key': key } });
      expect(res.body).toEqual({ status: 'ok' });
    }
  });
});
