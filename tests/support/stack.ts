/**
 * Test support: a private copy of the whole service per test file (own table on the shared DynamoDB Local,
 * own HTTP server on a free port, own SMS outbox), a small JSON client, and sign-in through the real
 * OTP flow.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, ManualClock } from '@mathisland/core';
import { afterAll, beforeAll, inject } from 'vitest';
import { type LocalStack, startLocalStack } from '../../packages/local/src/stack';

export interface TestStack extends LocalStack {
  clock: ManualClock;
}

/**
 * Starts the service with settings `env` (on top of test defaults) and a manual clock set to `now`, on the shared
 * DynamoDB Local unless `dynamodbEndpoint` names another (a fault test's own, or a proxy in front of one).
 */
export async function startTestStack(
  options: { env?: Record<string, string | undefined>; now?: Date | number; dynamodbEndpoint?: string; exposeOrigin?: boolean } = {},
): Promise<TestStack> {
  const clock = new ManualClock(options.now === undefined ? Date.now() : new Date(options.now).getTime());
  // A private data folder (the stack's signing keys), removed when the stack closes unless the caller chose its own.
  const dataDir = join(tmpdir(), `mathisland-test-${randomUUID()}`);
  const stack = await startLocalStack({
    port: 0,
    dynamodbEndpoint: options.dynamodbEndpoint ?? inject('dynamodbEndpoint'),
    clock: clock as Clock,
    // Every answer is checked against the OpenAPI document: a changed field, status or error code fails the test.
    checkResponses: true,
    ...(options.exposeOrigin ? { exposeOrigin: true } : {}),
    env: {
      TABLE_NAME: `test-${randomUUID()}`,
      DATA_DIR: dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      INTERNAL_SERVICE_KEY: 'test-internal-key-0123456789',
      STAGE: 'test',
      // The tutor talks to the fake model of the stack, whatever the developer's shell holds.
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      ...options.env,
    },
  });
  const close = stack.close.bind(stack);
  return Object.assign(stack, {
    clock,
    async close() {
      try {
        await close();
      } finally {
        if (options.env?.DATA_DIR === undefined) rmSync(dataDir, { recursive: true, force: true });
      }
    },
  });
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Sends one request; `body` objects are sent as JSON, strings as they are. */
export async function call<T = any>(
  stack: { baseUrl: string },
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${stack.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * Sends one request with node:http, so headers `fetch` will not send (a forged `Host`) reach the server as given.
 * Answers like {@link call}, without following redirects. `from`: the local address to send from (any 127.x.y.z is
 * this machine: the local edge then sees another viewer; support/from.ts).
 */
export function rawCall<T = any>(
  stack: { baseUrl: string },
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<ApiResponse<T>> {
  const url = new URL(path, stack.baseUrl);
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: options.from ? '127.0.0.1' : url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: options.headers,
        setHost: !options.headers?.host,
        ...(options.from ? { localAddress: options.from } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, headers, body: parsed as T, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let phoneCounter = 0;
/** A fresh Iranian-style mobile number for this process. */
export const newPhone = (): string => `0912${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter++).padStart(4, '0')}`;

/** The last code the fake SMS provider received for `phone`. */
export async function lastCode(stack: { baseUrl: string }, phone: string): Promise<string> {
  const { body } = await call<{ items: { token: string }[] }>(stack, 'GET', `/_local/sms/outbox?phone=${encodeURIComponent(phone)}`);
  const last = body.items.at(-1);
  if (!last) throw new Error(`no SMS was sent to ${phone}`);
  return last.token;
}

export interface Session {
  phone: string;
  accessToken: string;
  refreshToken: string;
  isNewUser: boolean;
  userId: number;
}

/** Signs in through the real flow: request a code, read it from the outbox, log in. */
export async function signIn(stack: TestStack, phone = newPhone()): Promise<Session> {
  const requested = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
  if (requested.status !== 200) throw new Error(`otp request failed: ${requested.status} ${requested.text}`);
  const code = await lastCode(stack, phone);
  const login = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { phone, ...login.body, userId: login.body.user.id };
}

/**
 * Starts a private stack before the tests of the calling `describe` block and closes it after them:
 * `const stack = useStack({ now })` replaces a `let stack` with its `beforeAll` and `afterAll`. The value
 * returned stands for the stack once `beforeAll` has run (reading it earlier throws).
 */
export function useStack(options: Parameters<typeof startTestStack>[0] = {}): TestStack {
  let current: TestStack | undefined;
  beforeAll(async () => {
    current = await startTestStack(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as TestStack, {
    get(_, property) {
      if (!current) throw new Error('the stack starts in beforeAll: use it inside a hook or a test');
      const value = Reflect.get(current, property, current);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/**
 * A new access token of a session (tests move the clock past the 1-hour access token lifetime). The refresh token
 * rotates with it: `session.refreshToken` becomes the new one (the used one is spent).
 */
export async function freshToken(stack: TestStack, session: Session): Promise<string> {
  const res = await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: session.refreshToken } });
  if (res.status !== 200) throw new Error(`refresh failed: ${res.status} ${res.text}`);
  session.refreshToken = res.body.refreshToken;
  return res.body.accessToken;
}
