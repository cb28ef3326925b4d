/**
 * The foundation's journey, as a new learner does it (issue "Foundation", Done when): request a code, read
 * it from the SMS outbox, sign in, open the map, answer the first island of grade 4 (one wrong answer
 * costs a heart), complete it, and see the second island unlocked with XP and stars in progress.
 */
import { describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { call, lastCode, newPhone, useStack } from './support/stack';

describe('a new learner finishes the first island', () => {
  const stack = useStack();

  it('signs in, answers, completes and unlocks the next island', async () => {
    const phone = newPhone();
    const requested = await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });
    expect(requested.status).toBe(200);
    expect(requested.text).not.toMatch(/\d{6}/);
    const code = await lastCode(stack, phone);
    expect(code).toMatch(/^\d{6}$/);

    const login = await call(stack, 'POST', '/api/auth/login', { body: { phone, otp: code } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ isNewUser: true, expiresIn: 3600 });
    const token = login.body.accessToken as string;

    const map = await call(stack, 'GET', '/api/home', { token });
    expect(map.status).toBe(200);
    expect(map.body.gradeId).toBe(4);
    const nodes = map.body.units.flatMap((u: { nodes: unknown[] }) => u.nodes);
    expect(nodes).toHaveLength(28);
    const [first, second] = allNodes();
    expect(nodes[0]).toMatchObject({ id: first!.id, locked: false, completed: false });
    expect(nodes[1]).toMatchObject({ id: second!.id, locked: true });

    const questions = questionsOf(first!);
    const bank = await call(stack, 'GET', `/api/nodes/${first!.id}/questions`);
    expect(bank.body.items.map((q: { id: number }) => q.id)).toEqual(questions.map((q) => q.id));

    let hearts = 5;
    for (const [i, q] of questions.entries()) {
      const answer = i === 0 ? wrongAnswer(q) : q.answer;
      const result = await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer } });
      expect(result.status).toBe(200);
      expect(result.body.correct).toBe(i !== 0);
      if (i === 0) {
        expect(result.body.hearts).toBe(4);
        expect(result.body.correctAnswer).toBe(q.answer);
      }
      hearts = result.body.hearts;
    }
    expect(hearts).toBe(4);

    const done = await call(stack, 'POST', `/api/nodes/${first!.id}/quiz/complete`, { token });
    expect(done.status).toBe(200);
    const correct = questions.length - 1;
    const expectedStars = correct / questions.length >= 0.9 ? 3 : correct / questions.length >= 0.6 ? 2 : 1;
    expect(done.body).toMatchObject({ stars: expectedStars, xp: correct * 10 + expectedStars * 5, nextNodeId: second!.id });

    const after = await call(stack, 'GET', '/api/home', { token });
    const afterNodes = after.body.units.flatMap((u: { nodes: unknown[] }) => u.nodes);
    expect(afterNodes[0]).toMatchObject({ completed: true, stars: expectedStars, locked: false });
    expect(afterNodes[1]).toMatchObject({ locked: false, completed: false });
    expect(afterNodes[2]).toMatchObject({ locked: true });

    const progress = await call(stack, 'GET', '/api/progress/nodes', { token });
    expect(progress.status).toBe(200);
    expect(progress.body.items).toEqual([
      expect.objectContaining({ nodeId: first!.id, completed: true, stars: expectedStars, xp: done.body.xp }),
    ]);
  });
});
