/**
 * The learning loop (spec "Node (island)" state table, Curriculum, Errors; DESIGN §3 question bank).
 */
import { describe, expect, it } from 'vitest';
import { allNodes, nodeById, questionsOf, wrongAnswer } from './support/content';
import { call, type Session, signIn, startTestStack, type TestStack, useStack } from './support/stack';

const [n1, n2, n3] = allNodes();
const node1 = n1!;
const node2 = n2!;
const node3 = n3!;

async function answerAll(stack: TestStack, s: Session, nodeId: number, right: (i: number) => boolean) {
  const questions = questionsOf(nodeById(nodeId));
  for (const [i, q] of questions.entries()) {
    const res = await call(stack, 'POST', `/api/questions/${q.id}/answer`, {
      token: s.accessToken,
      body: { answer: right(i) ? q.answer : wrongAnswer(q) },
    });
    expect(res.status).toBe(200);
  }
  return questions;
}

describe('question bank', () => {
  const stack = useStack();

  it('works without login and never reveals an answer key', async () => {
    const grades = await call(stack, 'GET', '/api/curriculum/grades');
    expect(grades.body.items.map((g: { id: number }) => g.id)).toEqual([4, 5]);
    for (const gradeId of [4, 5]) {
      const grade = await call(stack, 'GET', `/api/curriculum/grades/${gradeId}`);
      expect(grade.status).toBe(200);
      expect(grade.body.units).toHaveLength(7);
      const nodes = grade.body.units.flatMap((u: { nodes: unknown[] }) => u.nodes);
      expect(nodes).toHaveLength(28);
      for (const node of nodes as { id: number; lessons: { id: number }[] }[]) {
        const questions = await call(stack, 'GET', `/api/nodes/${node.id}/questions`);
        expect(questions.body.items.length).toBeGreaterThanOrEqual(4);
        expect(questions.text).not.toMatch(/"answer"/);
        for (const q of questions.body.items)
          expect(Object.keys(q).sort()).toEqual(q.type === 'choice' ? ['choices', 'id', 'text', 'type'] : ['id', 'text', 'type']);
      }
      const lesson = nodes[0].lessons.at(-1);
      const lessonQuestions = await call(stack, 'GET', `/api/lessons/${lesson.id}/questions`);
      expect(lessonQuestions.status).toBe(200);
      expect(lessonQuestions.text).not.toMatch(/"answer"/);
    }
  });

  it('answers 404 for unknown ids', async () => {
    for (const path of ['/api/curriculum/grades/9', '/api/nodes/1/questions', '/api/lessons/1/questions']) {
      const res = await call(stack, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('node state table', () => {
  const stack = useStack();

  it('locked: quiz complete, lesson complete and answering give 403 node_locked', async () => {
    const s = await signIn(stack);
    const q = questionsOf(node2)[0]!;
    for (const res of [
      await call(stack, 'POST', `/api/nodes/${node2.id}/quiz/complete`, { token: s.accessToken }),
      await call(stack, 'POST', `/api/lessons/${node2.lessons[0]!.id}/complete`, { token: s.accessToken }),
      await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: q.answer } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('node_locked');
    }
  });

  it('locked: any answer to its questions is 403 node_locked, a malformed one too, and costs no heart', async () => {
    const s = await signIn(stack);
    const before = await call(stack, 'GET', '/api/hearts', { token: s.accessToken });
    const q = questionsOf(node2)[0]!;
    const malformed = q.type === 'choice' ? 'not-a-choice' : 'not a number';
    for (const answer of [wrongAnswer(q), malformed]) {
      const res = await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer } });
      expect(res.status, answer).toBe(403);
      expect(res.body.code).toBe('node_locked');
    }
    const after = await call(stack, 'GET', '/api/hearts', { token: s.accessToken });
    expect(after.body.hearts).toBe(before.body.hearts);
  });

  it('unlocked with answers missing: 409 answers_missing listing them, node stays unlocked', async () => {
    const s = await signIn(stack);
    const questions = questionsOf(node1);
    await call(stack, 'POST', `/api/questions/${questions[0]!.id}/answer`, {
      token: s.accessToken,
      body: { answer: questions[0]!.answer },
    });
    const res = await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('answers_missing');
    expect(res.body.fields.questionIds).toEqual(questions.slice(1).map((q) => String(q.id)));
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.units[0].nodes[0]).toMatchObject({ locked: false, completed: false });
  });

  it('a perfect score gives 3 stars and full XP; the next node unlocks', async () => {
    const s = await signIn(stack);
    const questions = await answerAll(stack, s, node1.id, () => true);
    const res = await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      stars: 3,
      xp: questions.length * 10 + 15,
      nextNodeId: node2.id,
      nodeCompleted: true,
      alreadyCompleted: false,
    });
    const q = questionsOf(node2)[0]!;
    expect((await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: q.answer } })).status).toBe(
      200,
    );
  });

  it('any score completes: all wrong still completes with 1 star and star XP only, whatever score data the app sends', async () => {
    const stack2 = await startTestStack({ env: { HEARTS_ENFORCED: '0' } });
    try {
      const s = await signIn(stack2);
      await answerAll(stack2, s, node1.id, () => false);
      // The app's own tally (spec: the request carries "score data") is accepted, and the server's count decides.
      const claimed = { score: 100, correct: 99, total: 99, stars: 3 };
      const res = await call(stack2, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken, body: claimed });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ stars: 1, xp: 5, nextNodeId: node2.id });
    } finally {
      await stack2.close();
    }
  });

  it('a finished node stays finished: completing again grants no XP and keeps or raises stars', async () => {
    const s = await signIn(stack);
    await answerAll(stack, s, node1.id, (i) => i !== 0 && i !== 1);
    const first = await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    expect(first.body.alreadyCompleted).toBe(false);
    await answerAll(stack, s, node1.id, () => true);
    const again = await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ stars: 3, xp: 0, alreadyCompleted: true, nodeCompleted: true });
    const progress = await call(stack, 'GET', '/api/progress/nodes', { token: s.accessToken });
    expect(progress.body.items[0]).toMatchObject({ nodeId: node1.id, completed: true, stars: 3, xp: first.body.xp });
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.xp).toBe(first.body.xp);
    expect(home.body.stars).toBe(3);
  });

  it('nextNodeId crosses unit boundaries and is null at the end of the grade', async () => {
    const stack2 = await startTestStack({ env: { HEARTS_ENFORCED: '0' } });
    try {
      const s = await signIn(stack2);
      const nodes = allNodes();
      for (const [i, node] of nodes.entries()) {
        await answerAll(stack2, s, node.id, () => true);
        const res = await call(stack2, 'POST', `/api/nodes/${node.id}/quiz/complete`, { token: s.accessToken });
        expect(res.status).toBe(200);
        expect(res.body.nextNodeId).toBe(nodes[i + 1]?.id ?? null);
      }
      const home = await call(stack2, 'GET', '/api/home', { token: s.accessToken });
      expect(
        home.body.units.flatMap((u: { nodes: { completed: boolean }[] }) => u.nodes).every((n: { completed: boolean }) => n.completed),
      ).toBe(true);
    } finally {
      await stack2.close();
    }
  });
});

describe('lessons', () => {
  const stack = useStack();

  it('a lesson without questions completes with no XP; lessons with questions complete the node', async () => {
    const s = await signIn(stack);
    const [intro, ...practice] = node1.lessons;
    expect(intro!.questions).toHaveLength(0);
    const introDone = await call(stack, 'POST', `/api/lessons/${intro!.id}/complete`, { token: s.accessToken });
    expect(introDone.status).toBe(200);
    expect(introDone.body).toMatchObject({ xp: 0, stars: 0, nodeCompleted: false });

    let total = 0;
    for (const [i, lesson] of practice.entries()) {
      const missing = await call(stack, 'POST', `/api/lessons/${lesson.id}/complete`, { token: s.accessToken });
      expect(missing.status).toBe(409);
      expect(missing.body.code).toBe('answers_missing');
      for (const q of lesson.questions) {
        await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: q.answer } });
      }
      // A lesson's score data (spec "none/score") is accepted and does not lower what the answers earned.
      const done = await call(stack, 'POST', `/api/lessons/${lesson.id}/complete`, { token: s.accessToken, body: { score: 0 } });
      expect(done.status, done.text).toBe(200);
      const last = i === practice.length - 1;
      expect(done.body.nodeCompleted).toBe(last);
      expect(done.body.xp).toBe(lesson.questions.length * 10 + (last ? 15 : 0));
      total += done.body.xp;
      const again = await call(stack, 'POST', `/api/lessons/${lesson.id}/complete`, { token: s.accessToken });
      expect(again.body).toMatchObject({ xp: 0, alreadyCompleted: true });
    }
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.xp).toBe(total);
    expect(home.body.units[0].nodes[1].locked).toBe(false);
    // The quiz path after lessons grants nothing more.
    const quiz = await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    expect(quiz.body).toMatchObject({ xp: 0, alreadyCompleted: true });
  });

  it('a node completed by quiz does not pay lesson XP again', async () => {
    const s = await signIn(stack);
    await answerAll(stack, s, node1.id, () => true);
    await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    const lesson = await call(stack, 'POST', `/api/lessons/${node1.lessons[1]!.id}/complete`, { token: s.accessToken });
    expect(lesson.body.xp).toBe(0);
  });
});

describe('hearts', () => {
  const stack = useStack();

  it('a wrong answer costs one heart, a right one none; at 0 answering gives 403 no_hearts', async () => {
    const s = await signIn(stack);
    const questions = questionsOf(node1);
    const right = await call(stack, 'POST', `/api/questions/${questions[0]!.id}/answer`, {
      token: s.accessToken,
      body: { answer: questions[0]!.answer },
    });
    expect(right.body).toMatchObject({ correct: true, hearts: 5 });
    expect(right.body.correctAnswer).toBeUndefined();
    for (let i = 4; i >= 0; i--) {
      const q = questions[i % questions.length]!;
      const res = await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(q) } });
      expect(res.body.hearts).toBe(i);
    }
    const blocked = await call(stack, 'POST', `/api/questions/${questions[0]!.id}/answer`, {
      token: s.accessToken,
      body: { answer: questions[0]!.answer },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('no_hearts');
    // A question of a locked island is node_locked whatever the hearts, as a malformed answer to it is.
    const locked = questionsOf(n2!)[0]!;
    for (const answer of [locked.answer, 'not an answer']) {
      const res = await call(stack, 'POST', `/api/questions/${locked.id}/answer`, { token: s.accessToken, body: { answer } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('node_locked');
    }
    // completing a lesson without questions is gated too
    const intro = await call(stack, 'POST', `/api/lessons/${node1.lessons[0]!.id}/complete`, { token: s.accessToken });
    expect(intro.status).toBe(403);
    expect(intro.body.code).toBe('no_hearts');

    // a heart comes back after the refill time
    stack.clock.advance(4 * 3600);
    const { accessToken } = (await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } })).body;
    const back = await call(stack, 'POST', `/api/questions/${questions[0]!.id}/answer`, {
      token: accessToken,
      body: { answer: questions[0]!.answer },
    });
    expect(back.status).toBe(200);
    expect(back.body.hearts).toBe(1);
  });

  it('at 0 hearts refuses a completion whose answers are missing (no_hearts, not answers_missing), not one whose answers are in', async () => {
    const s = await signIn(stack);
    const [, first, second] = node1.lessons;
    // The second lesson's questions answered right (no heart spent), then every heart lost on the first lesson's.
    for (const q of second!.questions) {
      const res = await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: q.answer } });
      expect(res.body.correct).toBe(true);
    }
    const wrong = first!.questions[0]!;
    for (let i = 0; i < 5; i++) {
      await call(stack, 'POST', `/api/questions/${wrong.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(wrong) } });
    }
    // The first lesson and the quiz lack answers the learner cannot give now: no_hearts, so the app says to wait.
    for (const path of [`/api/lessons/${first!.id}/complete`, `/api/nodes/${node1.id}/quiz/complete`]) {
      const res = await call(stack, 'POST', path, { token: s.accessToken });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('no_hearts');
    }
    // The second lesson's answers are all in: it completes.
    const done = await call(stack, 'POST', `/api/lessons/${second!.id}/complete`, { token: s.accessToken });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ stars: 3, xp: 2 * 10 });
  });

  it('replays an answer retried with the same attemptId: one heart, not two', async () => {
    const s = await signIn(stack);
    const q = questionsOf(node1)[0]!;
    const body = { answer: wrongAnswer(q), attemptId: 'attempt-0001-abcdef' };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body })),
    );
    for (const r of results) expect(r.body).toMatchObject({ correct: false, hearts: 4 });
    const after = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(after.body.hearts).toBe(4);
    const other = questionsOf(node1)[1]!;
    const conflict = await call(stack, 'POST', `/api/questions/${other.id}/answer`, {
      token: s.accessToken,
      body: { answer: other.answer, attemptId: body.attemptId },
    });
    expect(conflict.status).toBe(409);
  });

  it('concurrent wrong answers never take hearts below 0 and each costs exactly one', async () => {
    const s = await signIn(stack);
    const questions = questionsOf(node1);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => {
        const q = questions[i % questions.length]!;
        return call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(q) } });
      }),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 403);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(3);
    expect(ok.map((r) => r.body.hearts).sort()).toEqual([0, 1, 2, 3, 4]);
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.hearts).toBe(0);
  });

  it('validates answers by question type without costing a heart', async () => {
    const s = await signIn(stack);
    const choice = questionsOf(node1).find((q) => q.type === 'choice')!;
    const number = questionsOf(node1).find((q) => q.type === 'number')!;
    expect((await call(stack, 'POST', `/api/questions/${choice.id}/answer`, { token: s.accessToken, body: { answer: 'z' } })).status).toBe(
      400,
    );
    expect(
      (await call(stack, 'POST', `/api/questions/${number.id}/answer`, { token: s.accessToken, body: { answer: 'abc' } })).status,
    ).toBe(400);
    const persian = String(number.answer)
      .replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!)
      .replace('.', '٫');
    const res = await call(stack, 'POST', `/api/questions/${number.id}/answer`, { token: s.accessToken, body: { answer: persian } });
    expect(res.body).toMatchObject({ correct: true, hearts: 5 });
    expect((await call(stack, 'POST', '/api/questions/1/answer', { token: s.accessToken, body: { answer: '1' } })).status).toBe(404);
  });
});

describe('hearts not enforced (HEARTS_ENFORCED=0)', () => {
  const stack = useStack({ env: { HEARTS_ENFORCED: '0' } });

  it('never costs a heart or blocks answering', async () => {
    const s = await signIn(stack);
    const q = questionsOf(node1)[0]!;
    for (let i = 0; i < 7; i++) {
      const res = await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(q) } });
      expect(res.status).toBe(200);
      expect(res.body.hearts).toBe(5);
    }
  });
});

describe('races and privacy', () => {
  const stack = useStack();

  it('parallel completions of one node grant XP once', async () => {
    const s = await signIn(stack);
    const questions = await answerAll(stack, s, node1.id, () => true);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(results.filter((r) => r.body.alreadyCompleted === false)).toHaveLength(1);
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.xp).toBe(questions.length * 10 + 15);
  });

  it('parallel lesson completions grant lesson XP once and complete the node once', async () => {
    const s = await signIn(stack);
    await answerAll(stack, s, node1.id, () => true);
    const lessons = node1.lessons.filter((l) => l.questions.length > 0);
    const results = await Promise.all(
      lessons.flatMap((l) => [1, 2, 3].map(() => call(stack, 'POST', `/api/lessons/${l.id}/complete`, { token: s.accessToken }))),
    );
    for (const r of results) expect(r.status).toBe(200);
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.xp).toBe(questionsOf(node1).length * 10 + 15);
    const progress = await call(stack, 'GET', '/api/progress/nodes', { token: s.accessToken });
    expect(progress.body.items).toHaveLength(1);
  });

  it('progress and the map are the caller’s own', async () => {
    const a = await signIn(stack);
    const b = await signIn(stack);
    await answerAll(stack, a, node1.id, () => true);
    await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: a.accessToken });
    const bProgress = await call(stack, 'GET', '/api/progress/nodes', { token: b.accessToken });
    expect(bProgress.body.items).toEqual([]);
    // A `userId` parameter is ignored: A still gets A's own row, exactly the documented fields (no table keys).
    const aProgress = await call(stack, 'GET', `/api/progress/nodes?userId=${b.userId}`, { token: a.accessToken });
    expect(aProgress.body.items).toHaveLength(1);
    expect(aProgress.body.items[0]).toMatchObject({ nodeId: node1.id, completed: true, stars: 3 });
    expect(Object.keys(aProgress.body.items[0]).sort()).toEqual(['completed', 'completedAt', 'gradeId', 'nodeId', 'score', 'stars', 'xp']);
    expect(aProgress.text).not.toMatch(/"(pk|sk|gsi1pk|gsi1sk|gsi2pk|gsi2sk|expiresAt)"/);
    // Each learner's map is drawn from their own progress: A's first island done and the second open,
    // B's untouched, the third locked for both.
    const mapOf = async (token: string) =>
      (await call(stack, 'GET', '/api/home', { token })).body.units.flatMap((u: { nodes: unknown[] }) => u.nodes);
    const [aMap, bMap] = [await mapOf(a.accessToken), await mapOf(b.accessToken)];
    expect(aMap.slice(0, 3)).toEqual([
      expect.objectContaining({ id: node1.id, completed: true, stars: 3, locked: false }),
      expect.objectContaining({ id: node2.id, completed: false, locked: false }),
      expect.objectContaining({ id: node3.id, completed: false, locked: true }),
    ]);
    expect(bMap.slice(0, 3)).toEqual([
      expect.objectContaining({ id: node1.id, completed: false, stars: 0, locked: false }),
      expect.objectContaining({ id: node2.id, completed: false, locked: true }),
      expect.objectContaining({ id: node3.id, completed: false, locked: true }),
    ]);
  });
});
