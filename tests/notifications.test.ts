/**
 * Notifications (issue 3 §8): created by an island completed, a streak milestone and a heart refill after
 * waiting; newest first with a cursor; mark one or all read; another learner's id is 404.
 */
import { describe, expect, it } from 'vitest';
import { allNodes, playNode, questionsOf, wrongAnswer } from './support/content';
import { call, freshToken, type Session, signIn, type TestStack, useStack } from './support/stack';

const [node1, node2] = allNodes() as [ReturnType<typeof allNodes>[number], ReturnType<typeof allNodes>[number]];
const intro = node1.lessons.find((l) => l.questions.length === 0)!;
const start = Date.UTC(2026, 10, 18, 8, 0);

async function list(stack: TestStack, s: Session, query = '') {
  return call(stack, 'GET', `/api/notifications${query}`, { token: await freshToken(stack, s) });
}

describe('notifications', () => {
  const stack = useStack({ now: start });

  it('an island completed creates one notification; repeats create none', async () => {
    const s = stack;
    const learner = await signIn(s);
    expect((await list(s, learner)).body).toEqual({ items: [], unreadCount: 0 });
    await playNode(s, learner.accessToken, node1);
    await call(s, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: learner.accessToken }); // a repeat
    const res = await list(s, learner);
    expect(res.status).toBe(200);
    expect(res.body.unreadCount).toBe(1);
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'island_completed',
        title: expect.stringContaining(node1.title),
        data: { nodeId: node1.id, title: node1.title, stars: 3, xp: expect.any(Number) },
        createdAt: new Date(start).toISOString(),
        read: false,
      },
    ]);
  });

  it('a streak milestone (3 days) creates a notification, newest first', async () => {
    const s = stack;
    s.clock.set(start);
    const learner = await signIn(s);
    for (let day = 0; day < 3; day++) {
      const res = await call(s, 'POST', `/api/lessons/${intro.id}/complete`, { token: await freshToken(s, learner) });
      expect(res.body.streak.current).toBe(day + 1);
      s.clock.advance(86_400);
    }
    await playNode(s, await freshToken(s, learner), node1);
    const { items } = (await list(s, learner)).body;
    expect(items.map((n: { kind: string }) => n.kind)).toEqual(['island_completed', 'streak_milestone']);
    expect(items[1].data).toEqual({ days: 3 });
  });

  it('a heart coming back after the learner ran out creates a notification dated at the refill', async () => {
    const s = stack;
    s.clock.set(start);
    const learner = await signIn(s);
    const questions = questionsOf(node1);
    for (let i = 0; i < 5; i++) {
      const q = questions[i % questions.length]!;
      const res = await call(s, 'POST', `/api/questions/${q.id}/answer`, { token: learner.accessToken, body: { answer: wrongAnswer(q) } });
      expect(res.body.hearts).toBe(4 - i);
    }
    const hearts = await call(s, 'GET', '/api/hearts', { token: learner.accessToken });
    expect(hearts.body.hearts).toBe(0);
    const refillAt = Date.parse(hearts.body.nextHeartAt);
    // Still waiting: nothing yet.
    s.clock.set(refillAt - 1000);
    expect((await list(s, learner)).body.items).toEqual([]);
    // Later than the refill: one notification, dated when the heart came back; two reads at once make one.
    s.clock.set(refillAt + 3 * 3600_000);
    const token = await freshToken(s, learner);
    await Promise.all([1, 2, 3].map(() => call(s, 'GET', '/api/notifications', { token })));
    const { items } = (await list(s, learner)).body;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'heart_refilled', createdAt: new Date(refillAt).toISOString(), data: { hearts: 1 } });
  });

  it('marks one read, then all read; another learner’s id is 404', async () => {
    const s = stack;
    s.clock.set(start);
    const learner = await signIn(s);
    await playNode(s, learner.accessToken, node1);
    await playNode(s, learner.accessToken, node2);
    const { items } = (await list(s, learner)).body;
    expect(items.map((n: { data: { nodeId: number } }) => n.data.nodeId)).toEqual([node2.id, node1.id]);

    const other = await signIn(s);
    const foreign = await call(s, 'POST', `/api/notifications/${items[0].id}/read`, { token: other.accessToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    expect((await call(s, 'POST', '/api/notifications/999999999/read', { token: learner.accessToken })).status).toBe(404);
    expect((await call(s, 'POST', '/api/notifications/۱۲/read', { token: learner.accessToken })).body.code).toBe('invalid_id');

    const one = await call(s, 'POST', `/api/notifications/${items[1].id}/read`, { token: learner.accessToken });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: items[1].id, read: true });
    let after = (await list(s, learner)).body;
    expect(after.unreadCount).toBe(1);
    expect(after.items.map((n: { read: boolean }) => n.read)).toEqual([false, true]);

    const all = await call(s, 'POST', '/api/notifications/read-all', { token: learner.accessToken });
    expect(all.status).toBe(200);
    after = (await list(s, learner)).body;
    expect(after.unreadCount).toBe(0);
    expect(after.items.every((n: { read: boolean }) => n.read)).toBe(true);

    // A notification after read-all is unread again.
    await playNode(s, learner.accessToken, allNodes()[2]!);
    after = (await list(s, learner)).body;
    expect(after.unreadCount).toBe(1);
    expect(after.items[0].read).toBe(false);
  });

  it('pages newest first with a cursor, and refuses a forged cursor', async () => {
    const s = stack;
    s.clock.set(start);
    const learner = await signIn(s);
    for (const node of allNodes().slice(0, 5)) {
      expect((await playNode(s, learner.accessToken, node)).status).toBe(200);
      s.clock.advance(60);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await list(s, learner, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((n: { data: { nodeId: number } }) => n.data.nodeId));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(
      allNodes()
        .slice(0, 5)
        .map((n) => n.id)
        .reverse(),
    );
    const forged = await list(s, learner, '?cursor=not-a-cursor');
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('validation_error');
  });
});
