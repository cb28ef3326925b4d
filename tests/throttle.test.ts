/**
 * Throttle hits counted inside the route's own transaction (issue 15; spec Limits): answers and completions
 * count their hit in the transaction that records them, so a full window refuses the whole change (429, nothing
 * written), a call that wrote nothing (an error, a replay) is still counted, and parallel calls never pass the
 * limit. Read routes scoped per learner count their hit on the user item as the session check loads it
 * (core throttle/onItem.ts): the same limits, windows and Retry-After, stale slots restarted, nothing counted for
 * a revoked session. The stack runs with BENCH_THROTTLE_LIMIT, which replaces every scope's limit (and which production
 * refuses: packages/core/src/config/settings.test.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getUser, type User, userKey } from '@mathisland/core/auth';
import { SLOTS } from '@mathisland/core/throttle';
import { describe, expect, it } from 'vitest';
import { routeKey, routes } from '../infra/routes';
import { loadRouteDefinitions } from '../packages/local/src/apiDocs';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { call, signIn, type TestStack, useStack } from './support/stack';

const LIMIT = 4;
const [node1, node2] = allNodes() as [ReturnType<typeof allNodes>[number], ReturnType<typeof allNodes>[number]];
const questions = questionsOf(node1);

const answer = (stack: TestStack, token: string, questionId: number, body: Record<string, unknown>) =>
  call(stack, 'POST', `/api/questions/${questionId}/answer`, { token, body });

/** Every test starts in a new hour: fresh windows for sign-in (per IP) and for the learner. */
async function freshLearner(stack: TestStack) {
  stack.clock.advance(3600);
  const session = await signIn(stack);
  return { session, user: async () => (await getUser(stack.deps.db, session.userId)) as User };
}

describe(`throttle hits inside the route's transaction (limit ${LIMIT} per window)`, () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0), env: { BENCH_THROTTLE_LIMIT: String(LIMIT) } });

  it('refuses the answer over the limit with 429 and Retry-After, and writes nothing of it', async () => {
    const { session, user } = await freshLearner(stack);
    for (const q of questions.slice(0, LIMIT))
      expect((await answer(stack, session.accessToken, q.id, { answer: q.answer })).status).toBe(200);
    const over = questions[LIMIT]!;
    const refused = await answer(stack, session.accessToken, over.id, { answer: wrongAnswer(over) });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('throttled');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The wrong answer cost no heart and was not recorded.
    expect(await user()).toMatchObject({ answeredCount: LIMIT, hearts: 5 });
  });

  it('counts calls that wrote nothing: a locked island, a bad answer and a replayed attempt', async () => {
    const { session } = await freshLearner(stack);
    const [q1] = questions;
    const locked = questionsOf(node2)[0]!;
    expect((await answer(stack, session.accessToken, q1!.id, { answer: q1!.answer, attemptId: 'attempt-0001' })).status).toBe(200);
    expect((await answer(stack, session.accessToken, locked.id, { answer: locked.answer })).status).toBe(403);
    expect((await answer(stack, session.accessToken, q1!.id, { answer: 'not-a-choice-or-number' })).status).toBe(400);
    const replay = await answer(stack, session.accessToken, q1!.id, { answer: q1!.answer, attemptId: 'attempt-0001' });
    expect(replay.status).toBe(200);
    expect((await answer(stack, session.accessToken, q1!.id, { answer: q1!.answer })).status).toBe(429);
  });

  it('never lets parallel answers pass the limit: every success is recorded, the rest are refused', async () => {
    const { session, user } = await freshLearner(stack);
    const results = await Promise.all(
      Array.from({ length: LIMIT + 4 }, (_, i) => questions[i % questions.length]!).map((q) =>
        answer(stack, session.accessToken, q.id, { answer: q.answer }),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(LIMIT);
    for (const r of results) expect([200, 429, 503]).toContain(r.status);
    expect((await user()).answeredCount).toBe(ok);
  });

  it('refuses a completion over the limit and leaves the lesson uncompleted', async () => {
    const { session, user } = await freshLearner(stack);
    const token = session.accessToken;
    const lesson = node1.lessons.find((l) => l.questions.length > 0)!;
    for (const q of lesson.questions) expect((await answer(stack, token, q.id, { answer: q.answer })).status).toBe(200);
    // LIMIT completions of the intro lesson (no questions) fill the window: the first writes, the others write
    // nothing (already completed, today counted) and are counted after.
    const intro = node1.lessons[0]!;
    for (let i = 0; i < LIMIT; i++) expect((await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token })).status).toBe(200);
    const refused = await call(stack, 'POST', `/api/lessons/${lesson.id}/complete`, { token });
    expect(refused.status).toBe(429);
    expect(await user()).toMatchObject({ xp: 0, completedLessons: 1 });
  });
});

/** The raw user item: the throttle attributes the parsed user leaves out. */
async function rawUser(stack: TestStack, userId: number): Promise<Record<string, unknown>> {
  const got = await stack.deps.db.doc.send(new GetCommand({ TableName: stack.deps.db.tableName, Key: userKey(userId) }));
  return got.Item ?? {};
}
const slotsOf = (item: Record<string, unknown>, scope: string) =>
  Object.fromEntries(Object.entries(item).filter(([name]) => name.startsWith(`thr#${scope}#`)));

describe(`throttle hits counted on the user item by the session check (read routes, limit ${LIMIT} per window)`, () => {
  // 08:00 UTC: the windows of an hour start on the hour.
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0), env: { BENCH_THROTTLE_LIMIT: String(LIMIT) } });
  const hearts = (token: string) => call(stack, 'GET', '/api/hearts', { token });
  /** A new accessToken of the session (access tokens last an hour). */
  const refreshed = async (refreshToken: string): Promise<string> => {
    const res = await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken } });
    expect(res.status).toBe(200);
    return res.body.accessToken;
  };

  it('refuses the read over the limit with 429 and Retry-After until the window ends, then counts afresh', async () => {
    const { session } = await freshLearner(stack);
    stack.clock.advance(600);
    for (let i = 0; i < LIMIT; i++) expect((await hearts(session.accessToken)).status).toBe(200);
    const refused = await hearts(session.accessToken);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('throttled');
    // 10 minutes into an hour-long window.
    expect(Number(refused.headers.get('retry-after'))).toBe(3000);
    // Another scope on the same item counts apart.
    expect((await call(stack, 'GET', '/api/user/summary', { token: session.accessToken })).status).toBe(200);

    stack.clock.advance(3000);
    const token = await refreshed(session.refreshToken);
    for (let i = 0; i < LIMIT; i++) expect((await hearts(token)).status).toBe(200);
    expect((await hearts(token)).status).toBe(429);
    // One attribute per scope: a new window's hit removes the other slots.
    expect(Object.keys(slotsOf(await rawUser(stack, session.userId), 'hearts'))).toHaveLength(1);
  });

  it(`restarts a count left in the same slot ${SLOTS} windows ago (a stale window) instead of adding to it`, async () => {
    const { session } = await freshLearner(stack);
    for (let i = 0; i < LIMIT; i++) expect((await hearts(session.accessToken)).status).toBe(200);
    const before = slotsOf(await rawUser(stack, session.userId), 'hearts');
    stack.clock.advance(SLOTS * 3600);
    const token = await refreshed(session.refreshToken);
    for (let i = 0; i < LIMIT; i++) expect((await hearts(token)).status).toBe(200);
    expect((await hearts(token)).status).toBe(429);
    const after = slotsOf(await rawUser(stack, session.userId), 'hearts');
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(Object.values(after)[0]).toBe((Object.values(before)[0] as number) + SLOTS * 3600 * 1_000_000);
  });

  it('counts nothing for a revoked session: 401, and the new session has its whole window', async () => {
    const { session } = await freshLearner(stack);
    const again = await signIn(stack, session.phone);
    for (let i = 0; i < LIMIT + 2; i++) expect((await hearts(session.accessToken)).status).toBe(401);
    for (let i = 0; i < LIMIT; i++) expect((await hearts(again.accessToken)).status).toBe(200);
    expect((await hearts(again.accessToken)).status).toBe(429);
  });

  it('never lets parallel reads pass the limit', async () => {
    const { session } = await freshLearner(stack);
    const results = await Promise.all(Array.from({ length: LIMIT + 6 }, () => hearts(session.accessToken)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeLessThanOrEqual(LIMIT);
    expect(ok).toBeGreaterThan(0);
    for (const r of results) expect([200, 429]).toContain(r.status);
    const [count] = Object.values(slotsOf(await rawUser(stack, session.userId), 'hearts')) as number[];
    expect((count as number) % 1_000_000).toBe(ok);
  });
});

/**
 * The check that a route's flag and its domain call agree (issue 27): every route flagged `throttleInTransaction`
 * counts its hit in the transaction that records its change, never by a hit of its own afterwards. (An unflagged
 * route calling a counting use case does not compile: packages/functions/src/lib/route.ts.)
 */
describe('every route flagged throttleInTransaction counts its hit inside the transaction it writes', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0) });
  const lesson = node1.lessons.find((l) => l.questions.length > 0)!;
  const answerAll = async (token: string, qs: typeof questions) => {
    for (const q of qs) expect((await answer(stack, token, q.id, { answer: q.answer })).status).toBe(200);
  };
  /** Per flagged route: prepares a learner and names the call that writes (a new flagged route needs its entry). */
  const writes: Record<string, (token: string) => Promise<{ path: string; body?: unknown }>> = {
    'POST /api/questions/{id}/answer': async () => ({
      path: `/api/questions/${questions[0]!.id}/answer`,
      body: { answer: questions[0]!.answer },
    }),
    'POST /api/lessons/{id}/complete': async (token) => {
      await answerAll(token, lesson.questions);
      return { path: `/api/lessons/${lesson.id}/complete` };
    },
    'POST /api/review/{id}/answer': async (token) => {
      const q = questions[1]!;
      expect((await answer(stack, token, q.id, { answer: wrongAnswer(q) })).status).toBe(200); // into the review
      return { path: `/api/review/${q.id}/answer`, body: { answer: q.answer } };
    },
    'POST /api/nodes/{id}/quiz/complete': async (token) => {
      await answerAll(token, questions);
      return { path: `/api/nodes/${node1.id}/quiz/complete` };
    },
  };

  it('has a writing call for each flagged route', async () => {
    const groups = await loadRouteDefinitions();
    const flagged = Object.values(groups).flatMap((defs) =>
      Object.entries(defs)
        .filter(([, def]) => def.throttleInTransaction)
        .map(([key]) => key),
    );
    expect(flagged.sort()).toEqual(Object.keys(writes).sort());
  });

  it.each(Object.keys(writes))('%s', async (key) => {
    const scope = routes.find((r) => routeKey(r) === key)?.throttle as string;
    const session = await signIn(stack);
    const { path, body } = await (writes[key] as (token: string) => Promise<{ path: string; body?: unknown }>)(session.accessToken);
    const sent: object[] = [];
    const doc = stack.deps.db.doc;
    const send = doc.send;
    doc.send = ((command: object, ...rest: unknown[]) => {
      sent.push(command);
      return (send as (...a: unknown[]) => unknown).call(doc, command, ...rest);
    }) as typeof doc.send;
    try {
      const res = await call(stack, 'POST', path, { token: session.accessToken, ...(body ? { body } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } finally {
      doc.send = send;
    }
    const counter = `"pk":"THROTTLE#${scope}#user:${session.userId}"`;
    const input = (c: object) => JSON.stringify((c as { input: unknown }).input);
    const inTransaction = sent.filter((c) => c.constructor.name === 'TransactWriteCommand' && input(c).includes(counter));
    const standalone = sent.filter((c) => c.constructor.name !== 'TransactWriteCommand' && input(c).includes(counter));
    expect(inTransaction).toHaveLength(1);
    expect(standalone).toHaveLength(0);
  });
});
