/**
 * The scoring rules of the learning loop, in one place (spec "Node (island)"; docs/decisions.md).
 *
 * - Any score completes a node; stars come from the share of correct answers: 3 at 90 % or more, 2 at 60 %
 *   or more, otherwise 1. A node or lesson without questions gives 0 stars and no XP.
 * - XP: {@link XP_PER_CORRECT} per correctly answered question, granted once, the first time the lesson
 *   (or, for lessons not completed on their own, the node) is completed, plus {@link XP_PER_STAR} per star
 *   when the node is first completed. A finished node stays finished: completing it again grants no XP
 *   and can only raise its stars.
 */
export const XP_PER_CORRECT = 10;
export const XP_PER_STAR = 5;

/** Stars (0-3) for `correct` right answers out of `total` questions. */
export function starsFor(correct: number, total: number): number {
  if (total === 0) return 0;
  const share = correct / total;
  if (share >= 0.9) return 3;
  if (share >= 0.6) return 2;
  return 1;
}

/**
 * Whether `given` answers a question. Choice questions take the choice id; number questions take a number
 * written with ASCII or Persian/Arabic-Indic digits and `.` or `٫` as the decimal point, compared by value.
 * Returns undefined when `given` is not an answer of the right form.
 */
export function checkAnswer(
  question: { type: 'choice' | 'number'; answer: string; choices?: { id: string }[] },
  given: string,
): boolean | undefined {
  const text = given.trim();
  if (question.type === 'choice') {
    if (!question.choices?.some((c) => c.id === text)) return undefined;
    return text === question.answer;
  }
  const ascii = text
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace('٫', '.')
    .replace(/^−/, '-');
  if (!/^-?\d+(\.\d+)?$/.test(ascii)) return undefined;
  return Number(ascii) === Number(question.answer);
}
