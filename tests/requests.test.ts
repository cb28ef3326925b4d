/**
 * DynamoDB requests per call of the hot routes (issue 15): exact counts through the local runtime, read from the
 * worker's client (`Db.requests`, counted by its pool middleware; the calls are sequential, so each count belongs
 * to one call). A change that makes a route send one more request fails here; `npm run bench` reports the same
 * counts with their latency. The leaderboard is counted at two board sizes with the caller outside the top 100,
 * so the counts must not depend on the number of learners; the board-snapshot job the local runtime runs before a
 * read (its schedule's stand-in) uses its own client and is not counted.
 */
import { bulkLoadBoard, OVERALL_BOARD, weeklyBoard } from '@mathisland/core/leaderboard';
import { describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { purchase } from './support/payments';
import { call, freshToken, newPhone, signIn, type TestStack, useStack } from './support/stack';

const [node1, node2] = allNodes() as [ReturnType<typeof allNodes>[number], ReturnType<typeof allNodes>[number]];
const wednesday = Date.UTC(2026, 10, 18, 8, 30);

/** Runs `send` and returns the number of DynamoDB requests the worker sent meanwhile, failing on an error status. */
async function counted(stack: TestStack, send: () => Promise<{ status: number; text: string }>): Promise<number> {
  const before = stack.deps.db.requests.total;
  const res = await send();
  if (res.status >= 400) throw new Error(`${res.status} ${res.text}`);
  return stack.deps.db.requests.total - before;
}

async function answerAll(stack: TestStack, token: string, node: typeof node1) {
  for (const q of questionsOf(node)) await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: q.answer } });
}

describe('DynamoDB requests per call', () => {
  const stack = useStack({ now: wednesday });

  it('sign-in, the map, answering, completing and buying send the same number of requests every time', async () => {
    const s = stack;
    const counts: Record<string, number> = {};
    const phone = newPhone();
    counts['otp request (new phone)'] = await counted(s, () => call(s, 'POST', '/api/auth/otp/request', { body: { phone } }));
    const code = (await call(s, 'GET', `/_local/sms/outbox?phone=${phone}`)).body.items.at(-1).token;
    let token = '';
    counts['login (new user)'] = await counted(s, async () => {
      const res = await call(s, 'POST', '/api/auth/login', { body: { phone, otp: code } });
      token = res.body.accessToken;
      return res;
    });
    s.clock.advance(61);
    await call(s, 'POST', '/api/auth/otp/request', { body: { phone } });
    const again = (await call(s, 'GET', `/_local/sms/outbox?phone=${phone}`)).body.items.at(-1).token;
    counts['login (existing user)'] = await counted(s, async () => {
      const res = await call(s, 'POST', '/api/auth/login', { body: { phone, otp: again } });
      token = res.body.accessToken;
      return res;
    });
    counts.home = await counted(s, () => call(s, 'GET', '/api/home', { token }));

    const [q1, q2, q3, ...rest] = questionsOf(node1);
    counts['answer (right)'] = await counted(s, () =>
      call(s, 'POST', `/api/questions/${q1!.id}/answer`, { token, body: { answer: q1!.answer } }),
    );
    counts['answer (wrong, a heart)'] = await counted(s, () =>
      call(s, 'POST', `/api/questions/${q2!.id}/answer`, { token, body: { answer: wrongAnswer(q2!) } }),
    );
    counts['answer (with attemptId)'] = await counted(s, () =>
      call(s, 'POST', `/api/questions/${q3!.id}/answer`, { token, body: { answer: q3!.answer, attemptId: 'attempt-0001' } }),
    );
    counts['answer (attemptId replayed)'] = await counted(s, () =>
      call(s, 'POST', `/api/questions/${q3!.id}/answer`, { token, body: { answer: q3!.answer, attemptId: 'attempt-0001' } }),
    );
    for (const q of rest) await call(s, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: q.answer } });
    counts['quiz complete (first island)'] = await counted(s, () => call(s, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token }));
    counts['quiz complete (again)'] = await counted(s, () => call(s, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token }));

    // The second island: answers behind the lock rule, its lessons completed one by one (the last completes it).
    const [q4] = questionsOf(node2);
    counts['answer (unlocked by the island before)'] = await counted(s, () =>
      call(s, 'POST', `/api/questions/${q4!.id}/answer`, { token, body: { answer: q4!.answer } }),
    );
    await answerAll(s, token, node2);
    const lessons = node2.lessons.filter((l) => l.questions.length > 0);
    expect(lessons.length).toBeGreaterThan(1);
    for (const [i, lesson] of lessons.entries()) {
      const label = i === lessons.length - 1 ? 'lesson complete (the last: completes the island)' : 'lesson complete';
      counts[label] = await counted(s, () => call(s, 'POST', `/api/lessons/${lesson.id}/complete`, { token }));
    }
    // The mistakes review (DESIGN §13): q2 went in with its wrong answer; the list is one Query with the map's.
    counts['review list'] = await counted(s, () => call(s, 'GET', '/api/review', { token }));
    counts['review answer (right, XP)'] = await counted(s, () =>
      call(s, 'POST', `/api/review/${q2!.id}/answer`, { token, body: { answer: q2!.answer } }),
    );
    counts['subscription purchase'] = await counted(s, () =>
      purchase(s, { accessToken: token } as never, { planId: 2, paymentMethod: 'gateway' }),
    );

    expect(counts).toEqual({
      'otp request (new phone)': 3,
      'login (new user)': 4,
      'login (existing user)': 3,
      home: 2,
      'answer (right)': 2,
      'answer (wrong, a heart)': 2,
      'answer (with attemptId)': 2,
      'answer (attemptId replayed)': 4,
      'quiz complete (first island)': 3,
      'quiz complete (again)': 3,
      'answer (unlocked by the island before)': 2,
      'lesson complete': 3,
      'lesson complete (the last: completes the island)': 3,
      'review list': 2,
      'review answer (right, XP)': 3,
      'subscription purchase': 5,
    });
  });
});

/**
 * `count` learners on both boards above the caller's 65 XP (a tenth of them tied with it, reached earlier),
 * loaded as the XP grants leave the boards.
 */
async function seedBoards(stack: TestStack, count: number) {
  const now = stack.clock.now();
  const learners = Array.from({ length: count }, (_, i) => ({
    userId: 5_000_000 + i,
    publicId: `User${String(500_000 + i)}`,
    xp: i % 10 === 0 ? 65 : 70 + 5 * (i % 40),
    reachedAt: now - 3_600_000 - i * 1000,
  }));
  for (const board of [OVERALL_BOARD, weeklyBoard(now)]) await bulkLoadBoard(stack.deps.db, board, learners);
}

describe.each([150, 1500])('DynamoDB requests of a leaderboard read with %i learners ahead', (size) => {
  const stack = useStack({ now: wednesday });

  // Cold: the session check, the board's snapshot and the caller's ties (one COUNT per tie shard: 4, the number the
  // capacity model needs at 3,000,000 learners, docs/capacity.md); warm: the session check.
  it('reads cold in 6 requests and warm in 1, whatever the size and in a new throttle window', async () => {
    const s = stack;
    await seedBoards(s, size);
    const learner = await signIn(s);
    await answerAll(s, learner.accessToken, node1);
    await call(s, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: learner.accessToken });
    const counts: Record<string, number> = {};
    // The second round is an hour later: a new throttle window, the last one's count still on the user item.
    for (const round of ['', ' (next hour)']) {
      if (round) s.clock.advance(3600);
      const token = round ? await freshToken(s, learner) : learner.accessToken;
      for (const period of ['weekly', 'overall']) {
        s.clock.advance(61); // past the 60 s cache
        let rank = 0;
        counts[`${period} cold${round}`] = await counted(s, async () => {
          const res = await call(s, 'GET', `/api/leaderboard?period=${period}`, { token });
          rank = res.body.me?.rank;
          return res;
        });
        expect(rank).toBe(size + 1);
        counts[`${period} warm${round}`] = await counted(s, () => call(s, 'GET', `/api/leaderboard?period=${period}`, { token }));
      }
    }
    expect(counts).toEqual({
      'weekly cold': 6,
      'weekly warm': 1,
      'overall cold': 6,
      'overall warm': 1,
      'weekly cold (next hour)': 6,
      'weekly warm (next hour)': 1,
      'overall cold (next hour)': 6,
      'overall warm (next hour)': 1,
    });
  });
});
