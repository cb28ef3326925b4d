/**
 * The database failing (issue 13 item 3; DESIGN §5, §11): DynamoDB stopped and restarted mid-run, stalled
 * (connections accepted, never answered), throttled, failing and answering garbage. Every request answers within
 * API Gateway's 30 s: 503 `database_busy` with `Retry-After` while the database is away (health 503 with
 * Retry-After), never a 500; after the restart nothing is half written: hearts match the answers recorded, and
 * an order is paid together with its subscription and its audit row, or not at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { withDeadline } from '@mathisland/core';
import { getUser } from '@mathisland/core/auth';
import { tehranDay } from '@mathisland/core/calendar';
import { createDb } from '@mathisland/core/db';
import { getDayActivity } from '@mathisland/core/progress';
import { getOrder, listOrderEvents } from '@mathisland/core/subscriptions';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DynamoLocal, freePort, startDynamoLocal } from '../packages/local/src/dynamo';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { addFigures } from './support/figures';
import { DAY_MS, fetchManual, openPayLink, PLAN_30, pressOnGateway, purchase } from './support/payments';
import { type ApiResponse, call, type Session, signIn, startTestStack, type TestStack } from './support/stack';
import { dynamoErrorResponse, startTcpProxy, type TcpProxy } from './support/tcpProxy';

/** API Gateway's integration timeout; every answer must come before it. */
const API_GATEWAY_MS = 30_000;
const node = allNodes()[0]!;

/** What this file did to the database, for docs/reliability.md. */
const figures = { databaseFaults: 0, requestsDuringDatabaseFaults: 0 };
afterAll(() => addFigures('faults', figures));

/** Sends a request and measures it. */
async function timed(stack: TestStack, method: string, path: string, options: Parameters<typeof call>[3] = {}) {
  const t0 = performance.now();
  const res = await call(stack, method, path, options);
  if (res.status === 503) figures.requestsDuringDatabaseFaults++;
  return { ...res, ms: performance.now() - t0, label: `${method} ${path}` };
}

/** A 503 database_busy with Retry-After (or health's own 503), never a 500. */
function expectDatabaseBusy(res: ApiResponse & { label: string; ms: number }) {
  expect(res.status, `${res.label}: ${res.text}`).toBe(503);
  expect(Number(res.headers.get('retry-after')), res.label).toBeGreaterThan(0);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  if (!res.label.includes('/api/health')) expect(res.body.code, res.label).toBe('database_busy');
  expect(res.ms, res.label).toBeLessThan(API_GATEWAY_MS);
}

/** Requests across the groups, each of which needs the table. */
const needsTheTable = (s: Session) =>
  [
    ['GET', '/api/home'],
    ['GET', '/api/hearts'],
    ['GET', '/api/progress/nodes'],
    ['POST', `/api/questions/${questionsOf(node)[0]!.id}/answer`, { answer: 'a' }],
    ['POST', `/api/nodes/${node.id}/quiz/complete`],
    ['GET', '/api/notifications'],
    ['GET', '/api/tickets'],
    ['GET', '/api/subscription/status'],
    ['GET', '/api/ai/history'],
    ['POST', '/api/auth/refresh', { refreshToken: s.refreshToken }],
    ['POST', '/api/auth/otp/request', { phone: '09120000123' }],
    ['GET', '/api/health'],
  ] as const;

describe('DynamoDB stopped and restarted mid-run', () => {
  let dataDir: string;
  let port: number;
  let dynamo: DynamoLocal | undefined;
  let stack: TestStack;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mathisland-ddb-'));
    port = await freePort();
    dynamo = await startDynamoLocal({ dbPath: dataDir, port, timeoutMs: 120_000 });
    stack = await startTestStack({ dynamodbEndpoint: dynamo.endpoint, now: Date.now() });
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    await dynamo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 database_busy with Retry-After while it is down, and leaves no half-done write after the restart', async () => {
    const learner = await signIn(stack);
    const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    const orderId: number = bought.body.orderId;

    // In flight when the database goes away: four wrong answers (answer + heart + day activity, one transaction
    // each) and the payment callback (order paid + subscription + audit row, one transaction).
    const questions = questionsOf(node).slice(0, 4);
    const inFlight = Promise.all([
      ...questions.map((q) =>
        timed(stack, 'POST', `/api/questions/${q.id}/answer`, { token: learner.accessToken, body: { answer: wrongAnswer(q) } }),
      ),
      (async () => {
        const t0 = performance.now();
        const res = await fetchManual(callbackUrl);
        return { status: res.status, ms: performance.now() - t0, text: await res.text(), headers: res.headers, label: 'callback' };
      })(),
    ]);
    await new Promise((r) => setTimeout(r, 15));
    await dynamo?.stop();
    dynamo = undefined;
    figures.databaseFaults++;
    for (const res of await inFlight) {
      expect(res.status === 503 || res.status < 400, `${res.label} ${res.status} ${res.text}`).toBe(true);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBeTruthy();
      expect(res.ms).toBeLessThan(API_GATEWAY_MS);
    }

    // While it is down: every group answers 503 database_busy, quickly.
    for (const [method, path, body] of needsTheTable(learner)) {
      expectDatabaseBusy(await timed(stack, method, path, { token: learner.accessToken, ...(body ? { body } : {}) }));
    }

    dynamo = await startDynamoLocal({ dbPath: dataDir, port, timeoutMs: 120_000 });

    // Nothing half written: the hearts lost are exactly the wrong answers recorded.
    const user = (await getUser(stack.deps.db, learner.userId))!;
    const day = await getDayActivity(stack.deps.db, learner.userId, tehranDay(stack.clock.now()));
    const wrong = (day?.answered ?? 0) - (day?.correct ?? 0);
    expect(user.hearts).toBe(5 - wrong);
    const hearts = await call(stack, 'GET', '/api/hearts', { token: learner.accessToken });
    expect(hearts.body.hearts).toBe(5 - wrong);

    // The order is paid with its subscription and audit row, or pending without either; the callback again
    // settles it exactly once.
    const paidRows = async () => (await listOrderEvents(stack.deps, orderId)).filter((e) => e.kind === 'payment_result' && !e.ignored);
    const order = await getOrder(stack.deps, orderId);
    expect(['pending', 'paid']).toContain(order.status);
    expect(Boolean(user.subscription)).toBe(order.status === 'paid');
    expect(await paidRows()).toHaveLength(order.status === 'paid' ? 1 : 0);
    const again = await fetchManual(callbackUrl);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toContain(`orderId=${orderId}&status=paid`);
    const after = (await getUser(stack.deps.db, learner.userId))!;
    expect(after.subscription?.expiresAt).toBe(stack.clock.now() + 30 * DAY_MS);
    expect(await paidRows()).toHaveLength(1);
    const home = await call(stack, 'GET', '/api/home', { token: learner.accessToken });
    expect(home.status).toBe(200);
  });
});

describe('DynamoDB stalled, throttled, failing', () => {
  let proxy: TcpProxy;
  let stack: TestStack;
  let learner: Session;
  beforeAll(async () => {
    proxy = await startTcpProxy(inject('dynamodbEndpoint'));
    stack = await startTestStack({ dynamodbEndpoint: proxy.endpoint });
    learner = await signIn(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('gives up on a database that accepts connections and never answers: 503 within the deadline, then recovers', async () => {
    proxy.mode = 'stall';
    figures.databaseFaults++;
    try {
      const results = await Promise.all(
        needsTheTable(learner).map(([method, path, body]) =>
          timed(stack, method, path, { token: learner.accessToken, ...(body ? { body } : {}) }),
        ),
      );
      for (const res of results) {
        expectDatabaseBusy(res);
        expect(res.ms, res.label).toBeGreaterThan(3_000); // the attempts' timeouts, not a refused connection
      }
    } finally {
      proxy.mode = 'pass';
    }
    expect((await call(stack, 'GET', '/api/home', { token: learner.accessToken })).status).toBe(200);
  });

  it('answers 503 database_busy to throttling, a failing service, refused connections and garbage', async () => {
    const replies = {
      ProvisionedThroughputExceededException: dynamoErrorResponse(400, 'ProvisionedThroughputExceededException', 'throughput exceeded'),
      ThrottlingException: dynamoErrorResponse(400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.'),
      RequestLimitExceeded: dynamoErrorResponse(
        400,
        'RequestLimitExceeded',
        'Throughput exceeds the current throughput limit for your account.',
      ),
      InternalServerError: dynamoErrorResponse(500, 'InternalServerError', 'Internal server error'),
      ServiceUnavailable: 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      garbage:
        'HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nConnection: close\r\nContent-Length: 14\r\n\r\n{"Item":{"pk":',
    };
    try {
      for (const [name, reply] of Object.entries(replies)) {
        proxy.mode = 'reply';
        proxy.reply = reply;
        figures.databaseFaults++;
        expectDatabaseBusy({ ...(await timed(stack, 'GET', '/api/home', { token: learner.accessToken })), label: `home (${name})` });
      }
      proxy.mode = 'refuse';
      figures.databaseFaults++;
      expectDatabaseBusy(await timed(stack, 'GET', '/api/progress/nodes', { token: learner.accessToken }));
    } finally {
      proxy.mode = 'pass';
    }
    expect((await call(stack, 'GET', '/api/home', { token: learner.accessToken })).status).toBe(200);
  });

  it('stops at the request deadline however many slow calls a request makes', async () => {
    const db = createDb({ tableName: stack.deps.db.tableName, endpoint: proxy.endpoint });
    proxy.mode = 'delay';
    proxy.delayMs = 400;
    figures.databaseFaults++;
    try {
      const t0 = performance.now();
      const error = await withDeadline(1_500, async () => {
        for (let i = 0; i < 20; i++) await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: 'X', sk: String(i) } }));
      }).catch((e) => e);
      const ms = performance.now() - t0;
      expect(error).toMatchObject({ code: 'database_busy', extra: { retryAfter: expect.any(Number) } });
      expect(ms).toBeGreaterThan(1_400);
      expect(ms).toBeLessThan(4_000); // the deadline, plus room for a loaded machine
    } finally {
      proxy.mode = 'pass';
      db.raw.destroy();
    }
  });
});
