/**
 * A property-based fuzz of every route of `infra/routes.ts` through the local runtime (issue 13; DESIGN §3, §7,
 * §11). The routes come from the manifest and their body and query shapes from each route's own zod schemas,
 * so routes added later are fuzzed too. Each request is one of: a body shaped by the schema, the same body made
 * wrong in one way, or a hostile body; with any query string, path id, method, auth (learner A, learner B, no
 * one, a forged token, a staff cookie, the internal key), cookies and headers. Every answer must be:
 * - never a 5xx;
 * - on a 4xx, the JSON error shape `{ code, detail, fields? }` with a JSON content type;
 * - `Cache-Control: private, no-store` on every answer, and no stack trace in any body;
 * - never a field of another learner: A's answers hold nothing of B (phone, ticket text, tutor question,
 *   tokens) and B's nothing of A; answers to no one or a forged token hold nothing of either.
 *
 * `npm test` runs a small seed-stable fuzz (FUZZ_REQUESTS, default 600); `npm run fuzz` runs 10,000 requests;
 * `npm run reliability` also writes its figures (RELIABILITY_DIR) into docs/reliability.md. `FC_SEED` replays a
 * failure.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { endpointGroups, type RouteSpec, routeKey, routes } from '../infra/routes';
import { allNodes, questionsOf } from './support/content';
import { fromJsonSchema, headerValue, hostileBody, mutated, pathId, queryString } from './support/fuzzArbitraries';
import { PLAN_30, purchase, staffSession } from './support/payments';
import { call, freshToken, type Session, signIn, useStack } from './support/stack';
import { ask } from './support/tutor';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 600);
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261123;
/** The clock moves an hour on every this many requests (throttle windows reopen; tokens are refreshed). */
const REQUESTS_PER_HOUR = 250;
const INTERNAL_KEY = 'test-internal-key-0123456789';

type RouteSchemas = { body?: ZodType; query?: ZodType };
type Identity = 'A' | 'B' | 'none' | 'forged' | 'staff' | 'internal';

interface FuzzRequest {
  route: RouteSpec;
  method: string;
  path: string;
  identity: Identity;
  headers: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** `arbitrary` with probability `p`, else null. */
const sometimes = <T>(p: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: Math.round(p * 100), arbitrary }, { weight: Math.round((1 - p) * 100), arbitrary: fc.constant(null) });

/** One request through node:http (any header, any path as written). */
function send(port: number, req: FuzzRequest, auth: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A body is always framed by Content-Length (Node sends a GET or HEAD body unframed otherwise).
    const length = req.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(req.body)) };
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers: { ...req.headers, ...auth, ...length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** The zod schemas of every route, from the endpoint groups' own definitions. */
async function routeSchemas(): Promise<Map<string, RouteSchemas>> {
  const schemas = new Map<string, RouteSchemas>();
  for (const group of endpointGroups) {
    const mod = (await import(`../packages/functions/src/groups/${group}.ts`)) as { routes: Record<string, RouteSchemas> };
    for (const [key, def] of Object.entries(mod.routes)) schemas.set(key, { body: def.body, query: def.query });
  }
  return schemas;
}

/** JSON Schema of a zod schema (zod 4's own converter; what JSON cannot say becomes "any"). */
const jsonSchemaOf = (schema: ZodType | undefined) =>
  schema ? (schema as ZodType & { toJSONSchema(p: object): object }).toJSONSchema({ unrepresentable: 'any', io: 'input' }) : undefined;

/** What a learner owns that no one else may ever see. */
interface Learner {
  session: Session;
  token: string;
  secrets: string[];
  ids: number[];
  messageIds: string[];
}

async function learnerWithData(stack: Parameters<typeof signIn>[0], name: string): Promise<Learner> {
  const session = await signIn(stack);
  const token = session.accessToken;
  const mark = `${name}-${randomUUID().slice(0, 8)}`;
  const ticket = await call(stack, 'POST', '/api/tickets', { token, body: { subject: `subject ${mark}`, text: `text ${mark}-t` } });
  await call(stack, 'POST', `/api/tickets/${ticket.body.id}/messages`, { token, body: { text: `message ${mark}-m` } });
  const node = allNodes()[0]!;
  for (const q of questionsOf(node)) await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: q.answer } });
  await call(stack, 'POST', `/api/nodes/${node.id}/quiz/complete`, { token });
  const order = await purchase(stack, session, { planId: PLAN_30, paymentMethod: 'gateway' });
  await ask(stack, token, { userQuestion: `what is 3/4 + 1/8 for ${mark}-q?` });
  const history = await call(stack, 'GET', '/api/ai/history', { token });
  const notifications = await call(stack, 'GET', '/api/notifications', { token });
  return {
    session,
    token,
    secrets: [session.phone, mark, session.refreshToken, token, new URL(order.body.paymentUrl).searchParams.get('sig') as string],
    ids: [ticket.body.id, order.body.orderId, ...notifications.body.items.map((n: { id: number }) => n.id)],
    messageIds: history.body.items.map((m: { id: string }) => m.id),
  };
}

describe('route fuzz', () => {
  const stack = useStack({ env: { INTERNAL_SERVICE_KEY: INTERNAL_KEY } });

  it(`answers ${REQUESTS} fuzzed requests over every route: never a 5xx, always the error shape, never another learner's data`, {
    timeout: 120_000 + REQUESTS * 150,
  }, async () => {
    stack.llm.config.firstTokenDelayMs = 0;
    stack.llm.config.chunkDelayMs = 0;
    const schemas = await routeSchemas();
    expect([...schemas.keys()].sort()).toEqual(routes.map(routeKey).sort());
    const [a, b] = [await learnerWithData(stack, 'A'), await learnerWithData(stack, 'B')];
    const staff = await staffSession(stack, { isSuperuser: true });
    const knownIds = [...a.ids, ...b.ids];

    const authOf = (identity: Identity): Record<string, string> =>
      ({
        A: { authorization: `Bearer ${a.token}` },
        B: { authorization: `Bearer ${b.token}` },
        none: {},
        forged: { authorization: `Bearer ${a.token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}` },
        staff: { cookie: staff.cookie },
        internal: { 'x-internal-key': INTERNAL_KEY },
      })[identity];

    const requestFor = (route: RouteSpec): fc.Arbitrary<FuzzRequest> => {
      const { body, query } = schemas.get(routeKey(route)) ?? {};
      const bodySchema = jsonSchemaOf(body);
      const valid = bodySchema ? fromJsonSchema(bodySchema as never) : fc.constant(undefined);
      const messageIds = [...a.messageIds, ...b.messageIds, 'x', ''];
      // Feedback names a tutor message: often a real one, A's or B's.
      const withIds = fc
        .tuple(valid, fc.constantFrom(...messageIds), fc.boolean())
        .map(([v, messageId, real]) => (real && v && typeof v === 'object' && 'messageId' in v ? { ...v, messageId } : v));
      const bodyArb = fc.oneof(
        { weight: 5, arbitrary: withIds.map((v) => (v === undefined ? undefined : JSON.stringify(v))) },
        { weight: 2, arbitrary: mutated(valid).map((v) => JSON.stringify(v)) },
        { weight: 2, arbitrary: hostileBody },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );
      const queryNames = Object.keys((jsonSchemaOf(query) as { properties?: object } | undefined)?.properties ?? {});
      return fc
        .record({
          id: pathId(knownIds),
          query: sometimes(0.5, queryString(queryNames)),
          body: bodyArb,
          identity: fc.constantFrom<Identity>('A', 'A', 'A', 'B', 'B', 'none', 'forged', 'staff', 'internal'),
          method: sometimes(0.1, fc.constantFrom('PUT', 'DELETE', 'PATCH', 'POST', 'GET', 'HEAD', 'OPTIONS')),
          contentType: sometimes(
            0.3,
            fc.constantFrom(
              'application/json',
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/json; charset=utf-16',
              'multipart/form-data',
            ),
          ),
          extra: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,12}$/), headerValue, { maxKeys: 3 }),
          idempotencyKey: sometimes(0.5, fc.oneof(fc.stringMatching(/^[A-Za-z0-9_.:-]{8,40}$/), headerValue)),
          cookie: sometimes(
            0.15,
            fc.constantFrom('mathisland_admin=%E0%A4%A', 'mathisland_admin=garbage; a=%%', `${staff.cookie}x`, 'a=1; a=2'),
          ),
        })
        .map((r) => {
          // Characters a request line cannot carry are percent-encoded; the ones written as escapes stay so.
          const id = r.id.replace(/[^A-Za-z0-9%._~-]/gu, (c) => encodeURIComponent(c));
          const path = `${route.path.replace('{id}', id)}${r.query === null ? '' : `?${r.query}`}`;
          const headers: Record<string, string> = { ...r.extra };
          if (r.contentType) headers['content-type'] = r.contentType;
          else if (r.body !== undefined) headers['content-type'] = 'application/json';
          if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey;
          if (r.cookie !== null) headers.cookie = r.cookie;
          return { route, method: r.method ?? route.method, path, identity: r.identity, headers, body: r.body };
        });
    };
    const anyRequest = fc.oneof(...routes.map(requestFor));

    const stats = {
      requests: 0,
      crossUserRequests: 0,
      byStatus: {} as Record<string, number>,
      byRoute: {} as Record<string, number>,
      msByRoute: {} as Record<string, number>,
      hours: 0,
    };
    /** Sends `req` and checks the answer against every rule of the module doc. */
    const sendAndCheck = async (req: FuzzRequest) => {
      const auth = authOf(req.identity);
      if (req.headers.cookie && auth.cookie) auth.cookie = `${auth.cookie}; ${req.headers.cookie}`;
      const t0 = performance.now();
      const res = await send(stack.port, req, auth);
      const key = routeKey(req.route);
      stats.msByRoute[key] = Math.round((stats.msByRoute[key] ?? 0) + performance.now() - t0);
      stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
      stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
      const label = `${req.method} ${req.path.slice(0, 120)} as ${req.identity} body ${String(req.body).slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`;
      expect(res.status, label).toBeLessThan(500);
      expect(res.headers['cache-control'], label).toBe('private, no-store');
      expect(res.text, label).not.toMatch(/\bat [^\n]+\.(ts|js):\d+/);
      if (res.status >= 400 && req.method !== 'HEAD') {
        expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
        const error = JSON.parse(res.text);
        expect(
          Object.keys(error).every((k) => ['code', 'detail', 'fields'].includes(k)),
          label,
        ).toBe(true);
        expect(error.code, label).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(typeof error.detail === 'string' && error.detail.length > 0, label).toBe(true);
        if (error.fields !== undefined) {
          const messages = Object.values(error.fields);
          expect(
            messages.every((m) => Array.isArray(m) && m.every((x) => typeof x === 'string')),
            label,
          ).toBe(true);
        }
      }
      const forbidden =
        req.identity === 'staff'
          ? [a.token, b.token, a.session.refreshToken, b.session.refreshToken]
          : req.identity === 'A'
            ? [...b.secrets, a.token, a.session.refreshToken]
            : req.identity === 'B'
              ? [...a.secrets, b.token, b.session.refreshToken]
              : [...a.secrets, ...b.secrets];
      for (const secret of forbidden) expect(res.text.includes(secret), `${label}\nleaks ${secret.slice(0, 12)}…`).toBe(false);
    };

    // Every route with an id, for every id A and B own, asked by the other one (and by its owner), with a
    // body of the route's shape: the cross-user sweep, so that no owner check depends on luck.
    for (const route of routes.filter((r) => r.path.includes('{id}'))) {
      const bodySchema = jsonSchemaOf(schemas.get(routeKey(route))?.body);
      const [body] = bodySchema ? fc.sample(fromJsonSchema(bodySchema as never), { seed, numRuns: 1 }) : [undefined];
      for (const id of knownIds) {
        for (const identity of ['A', 'B'] as const) {
          stats.crossUserRequests++;
          await sendAndCheck({
            route,
            method: route.method,
            path: route.path.replace('{id}', String(id)),
            identity,
            headers: body === undefined ? {} : { 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        }
      }
    }

    await fc.assert(
      fc.asyncProperty(anyRequest, async (req) => {
        if (stats.requests > 0 && stats.requests % REQUESTS_PER_HOUR === 0) {
          stack.clock.advance(3600);
          stats.hours++;
          a.token = await freshToken(stack, a.session);
          b.token = await freshToken(stack, b.session);
        }
        stats.requests++;
        await sendAndCheck(req);
      }),
      { seed, numRuns: REQUESTS, endOnFailure: true },
    );

    // Every route was tried, and most requests got past the edge's first checks.
    if (REQUESTS >= 10 * routes.length) expect(Object.keys(stats.byRoute).length).toBe(routes.length);
    if (process.env.RELIABILITY_DIR) {
      mkdirSync(process.env.RELIABILITY_DIR, { recursive: true });
      writeFileSync(
        join(process.env.RELIABILITY_DIR, 'fuzz.json'),
        `${JSON.stringify({ seed, routes: routes.length, ...stats }, null, 2)}\n`,
      );
    }
  });
});
