/**
 * Races between lesson and node completion (issue 3 "Bad input and safety": concurrent completions never
 * double XP). The interleavings are made certain (support/interleave.ts): the rival completion happens right
 * after the first one has read what it needs.
 */
import { getUser, type User } from '@mathisland/core/auth';
import { completeLesson, completeNode, starsFor, XP_PER_CORRECT, XP_PER_STAR } from '@mathisland/core/progress';
import { uncounted } from '@mathisland/core/throttle';
import { describe, expect, it } from 'vitest';
import { allNodes, nodeXp, questionsOf, wrongAnswer } from './support/content';
import { commandOf, interleaved } from './support/interleave';
import { call, signIn, type TestStack, useStack } from './support/stack';

const node = allNodes()[0]!;
const lessonWithQuestions = node.lessons.find((l) => l.questions.length > 0)!;

const readsLessonCompletions = commandOf('BatchGetCommand', 'LESSON#');
/** A completion's read of its state (one BatchGet of the node's progress, the lock, answers and lessons). */
const readsNodeProgress = commandOf('BatchGetCommand', 'NODE#');

async function answeredLearner(stack: TestStack): Promise<User> {
  const s = await signIn(stack);
  for (const q of questionsOf(node)) {
    await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: q.answer } });
  }
  return (await getUser(stack.deps.db, s.userId)) as User;
}

describe('completion races', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0) });

  it('a lesson completed while the node quiz is being completed is credited once', async () => {
    const s = stack;
    const user = await answeredLearner(s);
    const deps = interleaved(s.deps, readsLessonCompletions, () => completeLesson(uncounted(s.deps), user, lessonWithQuestions.id));
    const quiz = await completeNode(uncounted(deps), user, node.id);
    const after = (await getUser(s.deps.db, user.id)) as User;
    expect(after.xp).toBe(nodeXp(node));
    expect(quiz.xp).toBe(nodeXp(node) - lessonWithQuestions.questions.length * 10);
  });

  it('a node quiz completed while a lesson is being completed leaves the lesson without XP', async () => {
    const s = stack;
    const user = await answeredLearner(s);
    // The lesson reads the node's progress (unlocked check) first; the quiz completes the node right then.
    const deps = interleaved(s.deps, readsNodeProgress, () => completeNode(uncounted(s.deps), user, node.id));
    const lesson = await completeLesson(uncounted(deps), user, lessonWithQuestions.id);
    const after = (await getUser(s.deps.db, user.id)) as User;
    expect(lesson.xp).toBe(0);
    expect(after.xp).toBe(nodeXp(node));
  });
  it('a node quiz completed while a lesson re-reads after losing a race leaves the lesson without XP', async () => {
    const s = stack;
    const lessons = node.lessons.filter((l) => l.questions.length > 0);
    expect(lessons.length).toBeGreaterThan(1);
    const [first, second] = lessons as [typeof lessonWithQuestions, typeof lessonWithQuestions];
    const learner = await answeredLearner(s);
    // Another lesson's XP lands first, so the second lesson's first try (from the stale user) loses its XP
    // condition; the quiz then completes the node right after the lesson's re-read of the node's progress.
    await completeLesson(uncounted(s.deps), learner, first.id);
    const deps = interleaved(s.deps, readsNodeProgress, () => completeNode(uncounted(s.deps), learner, node.id), 2);
    const lesson = await completeLesson(uncounted(deps), learner, second.id);
    const after = (await getUser(s.deps.db, learner.id)) as User;
    expect(after.xp).toBe(nodeXp(node));
    expect(lesson.xp).toBe(0);
  });

  it('the last two lessons completed at once complete the node once, even when one of them grants no XP', async () => {
    const s = stack;
    const [first, second] = node.lessons.filter((l) => l.questions.length > 0) as [typeof lessonWithQuestions, typeof lessonWithQuestions];
    const session = await signIn(s);
    // Today already counts for the streak (the intro lesson), so the streak's condition does not serialize them.
    await call(s, 'POST', `/api/lessons/${node.lessons[0]!.id}/complete`, { token: session.accessToken });
    // The first lesson's questions right, the second's wrong: the second grants no XP, so the XP condition alone
    // would not catch it; the check that the other lesson is still missing does.
    for (const q of first.questions)
      await call(s, 'POST', `/api/questions/${q.id}/answer`, { token: session.accessToken, body: { answer: q.answer } });
    for (const q of second.questions) {
      await call(s, 'POST', `/api/questions/${q.id}/answer`, { token: session.accessToken, body: { answer: wrongAnswer(q) } });
    }
    const learner = (await getUser(s.deps.db, session.userId)) as User;
    // The first lesson reads (the second still missing); the second completes right then, seeing the first missing.
    const deps = interleaved(s.deps, readsNodeProgress, () => completeLesson(uncounted(s.deps), learner, second.id));
    const lesson = await completeLesson(uncounted(deps), learner, first.id);
    const after = (await getUser(s.deps.db, learner.id)) as User;
    const total = first.questions.length + second.questions.length;
    const bonus = starsFor(first.questions.length, total) * XP_PER_STAR;
    expect(lesson).toMatchObject({ nodeCompleted: true, xp: first.questions.length * XP_PER_CORRECT + bonus });
    expect(after).toMatchObject({ xp: first.questions.length * XP_PER_CORRECT + bonus, completedNodes: 1, completedLessons: 3 });
    const progress = await call(s, 'GET', '/api/progress/nodes', { token: session.accessToken });
    expect(progress.body.items).toEqual([expect.objectContaining({ nodeId: node.id, completed: true })]);
  });
});
