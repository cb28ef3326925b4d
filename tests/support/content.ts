/**
 * Test access to the answer keys: tests read the seed data (the API never reveals keys), loaded by the same
 * `seedGrades()` as the seeding migration, to answer questions right or wrong on purpose.
 */
import { type SeedNode, type SeedQuestion, seedGrades } from '@mathisland/core/curriculum';
import { starsFor, XP_PER_CORRECT, XP_PER_STAR } from '@mathisland/core/progress';
import { call } from './stack';

/** The seeded grades in id order (4, 5). */
export const grades = await seedGrades();
/** The nodes of the grade at `gradeIndex` (0: grade 4, 1: grade 5) in map order. */
export function allNodes(gradeIndex = 0): SeedNode[] {
  const grade = grades[gradeIndex];
  if (!grade) throw new Error(`no grade at index ${gradeIndex}`);
  return grade.units.flatMap((u) => u.nodes);
}
export const nodeById = (id: number): SeedNode => {
  const node = grades.flatMap((g) => g.units.flatMap((u) => u.nodes)).find((n) => n.id === id);
  if (!node) throw new Error(`no node ${id}`);
  return node;
};
export const questionsOf = (node: SeedNode): SeedQuestion[] => node.lessons.flatMap((l) => l.questions);

/** A wrong answer of the right form for `q`. */
export function wrongAnswer(q: SeedQuestion): string {
  if (q.type === 'choice') return (q.choices ?? []).find((c) => c.id !== q.answer)?.id ?? 'a';
  return String(Number(q.answer) + 1);
}

/**
 * Answers every question of `node` through the API, the first `correct` of them right (all by default) and
 * the rest wrong, then completes the node's quiz. Returns the completion response.
 */
export async function playNode(
  stack: { baseUrl: string },
  token: string,
  node: SeedNode,
  correct = Number.POSITIVE_INFINITY,
): Promise<{ status: number; body: any }> {
  const questions = questionsOf(node);
  for (const [i, q] of questions.entries()) {
    const res = await call(stack, 'POST', `/api/questions/${q.id}/answer`, {
      token,
      body: { answer: i < correct ? q.answer : wrongAnswer(q) },
    });
    if (res.status !== 200) throw new Error(`answer failed: ${res.status} ${res.text}`);
  }
  return call(stack, 'POST', `/api/nodes/${node.id}/quiz/complete`, { token });
}

/** XP of a first completion of `node` by its quiz with `correct` right answers (the scoring rules of progress/rules.ts). */
export function nodeXp(node: SeedNode, correct = questionsOf(node).length): number {
  return correct * XP_PER_CORRECT + starsFor(correct, questionsOf(node).length) * XP_PER_STAR;
}
