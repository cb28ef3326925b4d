/**
 * Test access to the answer keys: tests read the seed directly (the API never reveals keys), to answer
 * questions right or wrong on purpose.
 */
import { grade4 } from '../../packages/core/src/curriculum/seed/grade4';
import { grade5 } from '../../packages/core/src/curriculum/seed/grade5';
import type { SeedNode, SeedQuestion } from '../../packages/core/src/curriculum/seed/types';

export const grades = [grade4, grade5];
export const allNodes = (gradeIndex = 0): SeedNode[] => (grades[gradeIndex] ?? grade4).units.flatMap((u) => u.nodes);
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
