/**
 * Leaderboards (issue 3 §3): weekly and overall, ties by who reached the score first, the caller's own rank
 * inside and outside the top, the 60-second cache, the Tehran week boundary (Saturday 00:00 = Friday 20:30
 * UTC), races, and bad input; the names the entries carry (renames, cleared names, races with grants). The move of
 * boards written before the sharded layout: tests/boardMigration.test.ts.
 */
import { userKey } from '@mathisland/core/auth';
import { put, transact } from '@mathisland/core/db';
import {
  boardEntries,
  getBoardEntry,
  getSnapshot,
  HISTOGRAM_SHARDS,
  OVERALL_BOARD,
  refreshBoardSnapshots,
  TOP_SIZE,
  takeSnapshot,
  weeklyBoard,
  xpHistogram,
  xpMove,
} from '@mathisland/core/leaderboard';
import { describe, expect, it } from 'vitest';
import { allNodes, nodeXp, playNode } from './support/content';
import { call, freshToken, type Session, signIn, type TestStack, useStack } from './support/stack';

const [node1, node2] = allNodes() as [ReturnType<typeof allNodes>[number], ReturnType<typeof allNodes>[number]];
// Wednesday 2026-11-18 12:00 Tehran; that week started on Saturday 2026-11-14.
const wednesday = Date.UTC(2026, 10, 18, 8, 30);
// Saturday 2026-11-21 00:00 Tehran = Friday 2026-11-20 20:30 UTC.
const nextSaturday = Date.UTC(2026, 10, 20, 20, 30);

async function board(stack: TestStack, s: Session, period?: string, extra = '') {
  const query = period === undefined ? extra : `?period=${period}${extra}`;
  return call(stack, 'GET', `/api/leaderboard${query}`, { token: await freshToken(stack, s) });
}

async function named(stack: TestStack, name: string): Promise<Session> {
  const s = await signIn(stack);
  await call(stack, 'PATCH', '/api/user/profile', { token: s.accessToken, body: { displayName: name } });
  return s;
}

describe('leaderboard ranking', () => {
  const stack = useStack({ now: wednesday });

  it('ranks by XP, breaks ties by who reached the score first, and shows the caller', async () => {
    const s = stack;
    const ana = await named(s, 'Ana');
    const bob = await named(s, 'Bob');
    const cyrus = await named(s, 'Cyrus');
    const dara = await signIn(s); // earns nothing

    expect((await playNode(s, bob.accessToken, node1)).status).toBe(200); // bob first at 65
    s.clock.advance(5);
    expect((await playNode(s, ana.accessToken, node1)).status).toBe(200); // ana later at 65
    s.clock.advance(5);
    expect((await playNode(s, cyrus.accessToken, node1, 4)).status).toBe(200); // 50

    const res = await board(s, ana, 'overall');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.period).toBe('overall');
    expect(res.body.weekStart).toBeNull();
    expect(res.body.items.map((r: { name: string; xp: number; rank: number }) => [r.rank, r.name, r.xp])).toEqual([
      [1, 'Bob', nodeXp(node1)],
      [2, 'Ana', nodeXp(node1)],
      [3, 'Cyrus', nodeXp(node1, 4)],
    ]);
    expect(res.body.items[0].publicId).toMatch(/^User\d{6}$/);
    expect(res.body.me).toMatchObject({ rank: 2, name: 'Ana', xp: nodeXp(node1) });

    const weekly = await board(s, cyrus, 'weekly');
    expect(weekly.body.weekStart).toBe('2026-11-14');
    expect(weekly.body.items.map((r: { name: string }) => r.name)).toEqual(['Bob', 'Ana', 'Cyrus']);
    expect(weekly.body.me).toMatchObject({ rank: 3, xp: nodeXp(node1, 4) });

    // Default period is weekly; a learner without XP has no rank; a name-less learner shows the publicId.
    const none = await board(s, dara);
    expect(none.body.period).toBe('weekly');
    expect(none.body.me.rank).toBeNull();
    expect(none.body.me.xp).toBe(0);
    expect(none.body.me.name).toMatch(/^User\d{6}$/);
  });

  it('refuses unknown periods and limits with a validation error', async () => {
    const s = stack;
    const learner = await signIn(s);
    for (const extra of ['?period=monthly', '?limit=0', `?limit=${TOP_SIZE + 1}`, '?limit=abc']) {
      const res = await call(s, 'GET', `/api/leaderboard${extra}`, { token: learner.accessToken });
      expect(res.status, extra).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    expect((await call(s, 'GET', '/api/leaderboard')).status).toBe(401);
  });
});

describe('leaderboard: the caller outside the top', () => {
  const stack = useStack({ now: wednesday });

  it('gives the exact rank from the XP histogram and the ties that reached the score earlier', async () => {
    const s = stack;
    const { db } = s.deps;
    const me = await signIn(s);
    const myXp = nodeXp(node1);
    const now = s.clock.now();
    // 150 other learners: 130 at XP 5..650 in steps of 5 (the one at my XP moved to my XP + 1), and 20 at
    // exactly my XP, half of them reaching it before me and half after.
    const others: { id: number; xp: number; at: number }[] = [];
    for (let i = 0; i < 130; i++) others.push({ id: 900_000 + i, xp: 5 * (i + 1) === myXp ? myXp + 1 : 5 * (i + 1), at: now - 1000 });
    for (let i = 0; i < 20; i++) others.push({ id: 910_000 + i, xp: myXp, at: i < 10 ? now - 10_000 + i : now + 10_000 + i });
    for (const o of others) {
      await transact(db, [
        put(db, {
          ...userKey(o.id),
          id: o.id,
          publicId: `User9${String(o.id).slice(-5)}`,
          xp: 0,
          stars: 0,
          hearts: 5,
          heartsUpdatedAt: 0,
        }),
        ...xpMove(db, { id: o.id, publicId: `User9${String(o.id).slice(-5)}`, xp: 0 }, o.xp, o.at).items,
      ]);
    }
    s.clock.set(now);
    expect((await playNode(s, me.accessToken, node1)).status).toBe(200);

    const expected = 1 + others.filter((o) => o.xp > myXp || (o.xp === myXp && o.at < now)).length;
    expect(expected).toBeGreaterThan(TOP_SIZE);
    for (const period of ['overall', 'weekly']) {
      const res = await board(s, me, period, '&limit=10');
      expect(res.body.items).toHaveLength(10);
      expect(res.body.items[0].xp).toBe(650);
      expect(res.body.me, period).toMatchObject({ rank: expected, xp: myXp });
    }
  });
});

describe('leaderboard cache and weeks', () => {
  const stack = useStack({ now: wednesday });

  it('serves the top from a 60-second cache while the caller sees their own XP at once', async () => {
    const s = stack;
    const leader = await named(s, 'Leader');
    const chaser = await named(s, 'Chaser');
    await playNode(s, leader.accessToken, node1);
    await playNode(s, chaser.accessToken, node1, 3);
    const first = await board(s, chaser, 'overall');
    expect(first.body.items.map((r: { name: string }) => r.name)).toEqual(['Leader', 'Chaser']);

    s.clock.advance(10);
    await playNode(s, chaser.accessToken, node2); // now ahead of the leader
    const cached = await board(s, chaser, 'overall');
    expect(cached.body.items.map((r: { name: string }) => r.name)).toEqual(['Leader', 'Chaser']);
    expect(cached.body.computedAt).toBe(first.body.computedAt);
    expect(cached.body.me).toMatchObject({ rank: 1, xp: nodeXp(node1, 3) + nodeXp(node2) });

    s.clock.advance(60);
    const refreshed = await board(s, leader, 'overall');
    expect(refreshed.body.items.map((r: { name: string }) => r.name)).toEqual(['Chaser', 'Leader']);
    expect(refreshed.body.me.rank).toBe(2);
  });

  it('weekly counts the current Tehran week only, from Saturday 00:00, island XP included', async () => {
    const s = stack;
    s.clock.set(nextSaturday - 60_000); // Friday 23:59 Tehran
    const learner = await named(s, 'Weekly');
    const friday = await playNode(s, learner.accessToken, node1);
    expect(friday.body.xp).toBe(nodeXp(node1)); // the island's XP and star bonus
    let weekly = await board(s, learner, 'weekly');
    expect(weekly.body.weekStart).toBe('2026-11-14');
    expect(weekly.body.me.xp).toBe(nodeXp(node1));

    s.clock.set(nextSaturday); // Saturday 00:00 Tehran: a new week
    weekly = await board(s, learner, 'weekly');
    expect(weekly.body.weekStart).toBe('2026-11-21');
    expect(weekly.body.items).toEqual([]);
    expect(weekly.body.me).toMatchObject({ rank: null, xp: 0 });
    const overall = await board(s, learner, 'overall');
    expect(overall.body.me.xp).toBeGreaterThanOrEqual(nodeXp(node1));

    await playNode(s, await freshToken(s, learner), node2, 4);
    s.clock.advance(61); // past the cache
    weekly = await board(s, learner, 'weekly');
    expect(weekly.body.items).toEqual([expect.objectContaining({ rank: 1, name: 'Weekly', xp: nodeXp(node2, 4) })]);
    expect(weekly.body.me).toMatchObject({ rank: 1, xp: nodeXp(node2, 4) });
  });

  it('parallel completions move the learner once per grant: board XP, user XP and histogram agree', async () => {
    const s = stack;
    s.clock.set(wednesday + 3600_000);
    const learner = await signIn(s);
    const t = learner.accessToken;
    // Answer both nodes' questions of lessons, then complete node1's lessons and node2 in parallel.
    for (const node of [node1]) {
      for (const q of node.lessons.flatMap((l) => l.questions)) {
        await call(s, 'POST', `/api/questions/${q.id}/answer`, { token: t, body: { answer: q.answer } });
      }
    }
    const lessons = node1.lessons.map((l) => l.id);
    const results = await Promise.all([
      ...lessons.map((id) => call(s, 'POST', `/api/lessons/${id}/complete`, { token: t })),
      ...lessons.map((id) => call(s, 'POST', `/api/lessons/${id}/complete`, { token: t })),
      call(s, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: t }),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    const granted = results.reduce((sum, r) => sum + r.body.xp, 0);
    const summary = await call(s, 'GET', '/api/user/summary', { token: t });
    expect(summary.body.xp).toBe(granted);
    expect(granted).toBe(nodeXp(node1));

    const { db } = s.deps;
    for (const boardId of [OVERALL_BOARD, weeklyBoard(s.clock.now())]) {
      const entry = await getBoardEntry(db, learner.userId, boardId);
      expect(entry?.xp, boardId).toBe(granted);
      const histogram = await xpHistogram(db, boardId);
      const entries = await boardEntries(db, boardId);
      // Every bucket counts exactly the entries at its XP.
      const counts = new Map<number, number>();
      for (const e of entries) counts.set(e.xp, (counts.get(e.xp) ?? 0) + 1);
      for (const bucket of histogram) expect(bucket.n, `${boardId} xp ${bucket.xp}`).toBe(counts.get(bucket.xp) ?? 0);
    }
  });
});

describe('names on the board entries (the top list reads no users)', () => {
  const stack = useStack({ now: wednesday + 2 * 3600_000 });
  const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((r) => r.name);
  const rename = async (s: Session, displayName: string | null) =>
    call(stack, 'PATCH', '/api/user/profile', { token: await freshToken(stack, s), body: { displayName } });

  it('shows a rename and a cleared name on both boards once the 60-second cache has passed', async () => {
    const s = stack;
    const learner = await named(s, 'Before');
    await playNode(s, learner.accessToken, node1);
    expect(names(await board(s, learner, 'overall'))).toEqual(['Before']);

    expect((await rename(learner, 'After')).status).toBe(200);
    s.clock.advance(61);
    for (const period of ['overall', 'weekly']) {
      const res = await board(s, learner, period);
      expect(names(res), period).toEqual(['After']);
      expect(res.body.me.name).toBe('After');
    }

    const cleared = await rename(learner, null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.displayName).toBeNull();
    s.clock.advance(61);
    const res = await board(s, learner, 'weekly');
    expect(res.body.items[0]).toMatchObject({ name: res.body.items[0].publicId });
    expect(res.body.items[0].publicId).toMatch(/^User\d{6}$/);
    const entry = await getBoardEntry(s.deps.db, learner.userId, OVERALL_BOARD);
    expect(entry).toMatchObject({ publicId: res.body.items[0].publicId });
    expect(entry?.displayName).toBeUndefined();
  });

  it('renames before any XP write no entry, and the first grant carries the name', async () => {
    const s = stack;
    const learner = await named(s, 'Newcomer');
    expect(await getBoardEntry(s.deps.db, learner.userId, OVERALL_BOARD)).toBeUndefined();
    await playNode(s, await freshToken(s, learner), node1, 4);
    expect(await getBoardEntry(s.deps.db, learner.userId, OVERALL_BOARD)).toMatchObject({ displayName: 'Newcomer' });
  });

  it('keeps the name of the last rename when renames and grants race', async () => {
    const s = stack;
    s.clock.advance(3600);
    const learner = await named(s, 'Racer0');
    const t = learner.accessToken;
    for (const q of node1.lessons.flatMap((l) => l.questions)) {
      await call(s, 'POST', `/api/questions/${q.id}/answer`, { token: t, body: { answer: q.answer } });
    }
    const results = await Promise.all([
      ...node1.lessons.map((l) => call(s, 'POST', `/api/lessons/${l.id}/complete`, { token: t })),
      call(s, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: t }),
      ...[1, 2, 3].map((i) => call(s, 'PATCH', '/api/user/profile', { token: t, body: { displayName: `Racer${i}` } })),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    const profile = await call(s, 'GET', '/api/user/profile', { token: t });
    for (const boardId of [OVERALL_BOARD, weeklyBoard(s.clock.now())]) {
      expect((await getBoardEntry(s.deps.db, learner.userId, boardId))?.displayName, boardId).toBe(profile.body.displayName);
    }
  });
});

describe('the snapshot job', () => {
  const stack = useStack({ now: wednesday });

  it('reads both boards’ histograms at its stamp, before any top or tie read, and refreshes one board when the other fails', async () => {
    const s = await named(stack, 'Snapper');
    await playNode(stack, s.accessToken, node1);
    const db = stack.deps.db;
    const reads: string[] = [];
    const send = (async (command: object) => {
      const input = JSON.stringify((command as { input: unknown }).input);
      if (command.constructor.name === 'QueryCommand') reads.push(input.includes('BOARDXP#') ? 'histogram' : 'other');
      if (command.constructor.name === 'PutCommand' && input.includes(`"BOARDSNAP#${OVERALL_BOARD}"`)) throw new Error('overall refused');
      return db.doc.send(command as never);
    }) as typeof db.doc.send;
    const failingOverall = { ...db, doc: Object.assign(Object.create(db.doc), { send }) };
    const now = stack.clock.now() + 120_000;
    await expect(refreshBoardSnapshots(failingOverall, now)).rejects.toThrow('overall refused');
    // Both histograms (every shard of each) come first: each is read at the stamp, not after the other board's reads.
    expect(reads.slice(0, 2 * HISTOGRAM_SHARDS).every((r) => r === 'histogram')).toBe(true);
    expect(reads.filter((r) => r === 'histogram')).toHaveLength(2 * HISTOGRAM_SHARDS);
    // The weekly board was refreshed although the overall one failed.
    expect((await getSnapshot(db, weeklyBoard(now)))?.at).toBe(now);
    expect((await getSnapshot(db, OVERALL_BOARD))?.at).not.toBe(now);
  });

  it('lists a learner once when the tie index still shows them at an old value too', async () => {
    const s = await named(stack, 'Mover');
    await playNode(stack, s.accessToken, node1);
    const db = stack.deps.db;
    const entry = (await getBoardEntry(db, s.userId, OVERALL_BOARD))!;
    // What the eventually consistent index may still hold for a moment: the learner at a lower value, counted there.
    const stale = entry.xp - 1;
    await transact(db, [
      put(db, {
        pk: `STALE#${s.userId}`,
        sk: 'ENTRY',
        gsi1pk: `BOARD#${OVERALL_BOARD}#${String(stale).padStart(10, '0')}#${s.userId % 4}`,
        gsi1sk: `${String(entry.reachedAt).padStart(13, '0')}#${String(s.userId).padStart(10, '0')}`,
        userId: s.userId,
        board: OVERALL_BOARD,
        xp: stale,
        reachedAt: entry.reachedAt,
        publicId: entry.publicId,
        displayName: entry.displayName,
      }),
      put(db, {
        pk: `BOARDXP#${OVERALL_BOARD}#${String(s.userId % HISTOGRAM_SHARDS).padStart(2, '0')}`,
        sk: String(stale).padStart(10, '0'),
        xp: stale,
        n: 1,
      }),
    ]);
    const snapshot = await takeSnapshot(db, OVERALL_BOARD, stack.clock.now());
    const rows = snapshot.data.top.filter((row) => row.userId === s.userId);
    expect(rows).toEqual([expect.objectContaining({ xp: entry.xp })]);
  });
});
