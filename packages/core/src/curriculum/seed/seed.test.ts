/** The seed data files (`grade4.json`, `grade5.json`) as the seeding migration loads them. */
import { describe, expect, it } from 'vitest';
import { seedGrades } from './load';
import { SeedGradeSchema } from './schema';
import type { SeedGrade, SeedQuestion } from './types';

const grades: SeedGrade[] = await seedGrades();

const allQuestions = (g: SeedGrade): SeedQuestion[] =>
  g.units.flatMap((u) => u.nodes.flatMap((n) => n.lessons.flatMap((l) => l.questions)));

// ---------------------------------------------------------------------------------------------
// A tiny parser for the one expression form `<a> <op> <b>` (ASCII or Persian digits) in a text.
// ---------------------------------------------------------------------------------------------

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';

/** Persian/Arabic digits to ASCII, Persian decimal separator to '.', thousands separators removed. */
function normalizeDigits(text: string): string {
  return text
    .replace(/[۰-۹]/g, (d) => String(PERSIAN_DIGITS.indexOf(d)))
    .replace(/[٠-٩]/g, (d) => String(ARABIC_DIGITS.indexOf(d)))
    .replace(/(\d)٫(?=\d)/g, '$1.')
    .replace(/(\d)[,٬](?=\d{3}(?!\d))/g, '$1');
}

/** Texts whose expression is not what is asked (remainder, estimate, rounding): skipped. */
const SKIP_WORDS = /باقی|تخمین|گرد|تقریب/;
const EXPRESSION = /(\d+(?:\.\d+)?)\s*([+\-−×÷])\s*(\d+(?:\.\d+)?)/g;
/** Characters that must not touch the expression: it would then be part of something larger. */
const ADJACENT = /[\d./:()+\-−×÷*☐□]/;

function charBefore(text: string, index: number): string {
  let i = index - 1;
  while (i >= 0 && text[i] === ' ') i--;
  return i >= 0 ? (text[i] ?? '') : '';
}

function charAfter(text: string, index: number): string {
  let i = index;
  while (i < text.length && text[i] === ' ') i++;
  return i < text.length ? (text[i] ?? '') : '';
}

/** The value of the single stand-alone `<a> <op> <b>` in the text, or undefined when there is none. */
function evaluateSimpleExpression(text: string): number | undefined {
  if (SKIP_WORDS.test(text)) return undefined;
  const normalized = normalizeDigits(text);
  const found: RegExpExecArray[] = [];
  for (const m of normalized.matchAll(EXPRESSION)) {
    const start = m.index ?? 0;
    const before = charBefore(normalized, start);
    const after = charAfter(normalized, start + m[0].length);
    if (ADJACENT.test(before) || ADJACENT.test(after)) continue;
    found.push(m);
  }
  if (found.length !== 1) return undefined;
  const [, a, op, b] = found[0] as RegExpExecArray;
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
    case '−':
      return x - y;
    case '×':
      return x * y;
    case '÷':
      return y === 0 ? undefined : x / y;
    default:
      return undefined;
  }
}

describe('expression parser', () => {
  it('parses the simple forms and skips the rest', () => {
    expect(evaluateSimpleExpression('حاصل ۳۵۶ + ۴۷۸ چند است؟')).toBe(834);
    expect(evaluateSimpleExpression('حاصل ۶٬۰۰۰ − ۲٬۴۷۵ چند است؟')).toBe(3525);
    expect(evaluateSimpleExpression('حاصل ۲٫۳۵ × ۴ چند است؟')).toBeCloseTo(9.4, 9);
    expect(evaluateSimpleExpression('12 ÷ 4 = ?')).toBe(3);
    expect(evaluateSimpleExpression('7 - 2')).toBe(5);
    expect(evaluateSimpleExpression('حاصل ۳/۴ × ۲۰ چند است؟')).toBeUndefined();
    expect(evaluateSimpleExpression('۴۰٬۰۰۰ + ۷٬۰۰۰ + ۳۰۰ + ۵')).toBeUndefined();
    expect(evaluateSimpleExpression('حاصل ۷ × (۴۰ + ۶) چند است؟')).toBeUndefined();
    expect(evaluateSimpleExpression('☐ − ۲۴۵ = ۵۸۰')).toBeUndefined();
    expect(evaluateSimpleExpression('باقی‌ماندهٔ ۵۳ ÷ ۸ چند است؟')).toBeUndefined();
    expect(evaluateSimpleExpression('مخرج کسر ۷/۹ چند است؟')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Structure of the seed.
// ---------------------------------------------------------------------------------------------

describe('curriculum seed', () => {
  it('refuses a data file that does not match types.ts', () => {
    const lesson = { id: 40011, title: 't', body: 'b', questions: [] };
    const grade = (node: object) => ({ id: 4, title: 'g', units: [{ id: 401, title: 'u', nodes: [node] }] });
    expect(SeedGradeSchema.safeParse(grade({ id: 4001, title: 'n', lessons: [lesson] })).success).toBe(true);
    expect(SeedGradeSchema.safeParse(grade({ id: 4001, title: 'n', lessons: [{ ...lesson, bdy: 'typo' }] })).success).toBe(false);
    expect(SeedGradeSchema.safeParse(grade({ id: '4001', title: 'n', lessons: [lesson] })).success).toBe(false);
    const question = { id: 400111, type: 'choice', text: 'q', choices: [{ id: 'e', text: 'x' }], answer: 'e' };
    expect(SeedGradeSchema.safeParse(grade({ id: 4001, title: 'n', lessons: [{ ...lesson, questions: [question] }] })).success).toBe(false);
  });

  it('has grades 4 and 5 with their titles', () => {
    expect(grades.map((g) => [g.id, g.title])).toEqual([
      [4, 'ریاضی پایه چهارم'],
      [5, 'ریاضی پایه پنجم'],
    ]);
  });

  for (const g of grades) {
    describe(`grade ${g.id}`, () => {
      it('has exactly 7 units and 28 nodes, 4 nodes per unit', () => {
        expect(g.units).toHaveLength(7);
        for (const u of g.units) expect(u.nodes).toHaveLength(4);
        expect(g.units.flatMap((u) => u.nodes)).toHaveLength(28);
      });

      it('numbers units, nodes, lessons and questions as types.ts says', () => {
        g.units.forEach((u, ui) => {
          expect(u.id).toBe(g.id * 100 + ui + 1);
        });
        const nodes = g.units.flatMap((u) => u.nodes);
        nodes.forEach((n, ni) => {
          expect(n.id).toBe(g.id * 1000 + ni + 1);
          expect(n.lessons.length).toBeGreaterThanOrEqual(1);
          expect(n.lessons.length).toBeLessThanOrEqual(9);
          n.lessons.forEach((l, li) => {
            expect(l.id).toBe(n.id * 10 + li + 1);
            expect(l.questions.length).toBeLessThanOrEqual(9);
            l.questions.forEach((q, qi) => {
              expect(q.id).toBe(l.id * 10 + qi + 1);
            });
          });
        });
      });

      it('opens every unit with an introduction lesson without questions', () => {
        for (const u of g.units) {
          u.nodes.forEach((n, ni) => {
            const practice = ni === 0 ? n.lessons.slice(1) : n.lessons;
            if (ni === 0) expect(n.lessons[0]?.questions).toHaveLength(0);
            expect(practice).toHaveLength(2);
            for (const l of practice) {
              expect(l.questions.length, `lesson ${l.id}`).toBeGreaterThanOrEqual(2);
              expect(l.questions.length, `lesson ${l.id}`).toBeLessThanOrEqual(3);
            }
          });
        }
      });

      it('has at least 4 questions in every node', () => {
        for (const n of g.units.flatMap((u) => u.nodes)) {
          const count = n.lessons.reduce((sum, l) => sum + l.questions.length, 0);
          expect(count, `node ${n.id}`).toBeGreaterThanOrEqual(4);
        }
      });

      it('has titles and bodies everywhere', () => {
        for (const u of g.units) {
          expect(u.title.trim()).not.toBe('');
          for (const n of u.nodes) {
            expect(n.title.trim()).not.toBe('');
            for (const l of n.lessons) {
              expect(l.title.trim(), `lesson ${l.id}`).not.toBe('');
              expect(l.body.trim(), `lesson ${l.id}`).not.toBe('');
            }
          }
        }
      });

      it('has well-formed questions', () => {
        for (const q of allQuestions(g)) {
          expect(q.text.trim(), `question ${q.id}`).not.toBe('');
          if (q.type === 'choice') {
            const choices = q.choices ?? [];
            expect(choices.length, `question ${q.id}`).toBeGreaterThanOrEqual(3);
            expect(choices.length, `question ${q.id}`).toBeLessThanOrEqual(4);
            const ids = choices.map((c) => c.id);
            expect(new Set(ids).size, `question ${q.id}`).toBe(ids.length);
            const texts = choices.map((c) => c.text.trim());
            expect(
              texts.every((t) => t !== ''),
              `question ${q.id}`,
            ).toBe(true);
            expect(new Set(texts).size, `question ${q.id}`).toBe(texts.length);
            expect(ids, `question ${q.id}`).toContain(q.answer);
          } else {
            expect(q.type, `question ${q.id}`).toBe('number');
            expect(q.choices, `question ${q.id}`).toBeUndefined();
            expect(q.answer, `question ${q.id}`).toMatch(/^-?\d+(\.\d+)?$/);
          }
        }
      });

      it('has at least one third numeric questions', () => {
        const qs = allQuestions(g);
        const numeric = qs.filter((q) => q.type === 'number').length;
        expect(numeric * 3).toBeGreaterThanOrEqual(qs.length);
      });
    });
  }

  it('uses every id once across both grades', () => {
    const ids: number[] = [];
    for (const g of grades) {
      ids.push(g.id);
      for (const u of g.units) {
        ids.push(u.id);
        for (const n of u.nodes) {
          ids.push(n.id);
          for (const l of n.lessons) {
            ids.push(l.id);
            for (const q of l.questions) ids.push(q.id);
          }
        }
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gets the simple arithmetic in number questions right', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const g of grades) {
      for (const q of allQuestions(g)) {
        if (q.type !== 'number') continue;
        const value = evaluateSimpleExpression(q.text);
        if (value === undefined) continue;
        checked++;
        if (Math.abs(value - Number(q.answer)) > 1e-9) wrong.push(`${q.id}: ${q.text} -> ${q.answer} (expected ${value})`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(40);
  });
});
