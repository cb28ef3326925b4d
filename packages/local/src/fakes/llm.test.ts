import { textbookExcerpts } from '@mathisland/core/tutor';
import { describe, expect, it } from 'vitest';
import { fakeAnswer } from './llmAnswer';
import { fakeEmbedding } from './llmEmbedding';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

describe('fakeEmbedding', () => {
  it('is deterministic and normalized', () => {
    const v = fakeEmbedding('how do I add 3/4 and 1/8?');
    expect(v).toEqual(fakeEmbedding('how do I add 3/4 and 1/8?'));
    expect(Math.abs(cosine(v, v) - 1)).toBeLessThan(1e-9);
  });

  it('finds the Persian textbook section of an English or Persian question', () => {
    const rank = (q: string, grade: number) =>
      textbookExcerpts
        .filter((e) => e.gradeId === grade)
        .map((e) => ({ title: e.title, score: cosine(fakeEmbedding(q), fakeEmbedding(`${e.title}\n${e.text}`)) }))
        .sort((a, b) => b.score - a.score)[0]?.title;
    expect(rank('how do I add 3/4 and 1/8?', 4)).toContain('کسرها');
    expect(rank('مساحت مثلث چطور حساب می‌شود؟', 5)).toContain('مساحت مثلث');
    expect(rank('what is the perimeter of a rectangle', 4)).toContain('محیط');
  });
});

describe('fakeAnswer', () => {
  it('works out a sum of two fractions, with Markdown and LaTeX in it', () => {
    const a = fakeAnswer([{ role: 'user', content: 'how do I add 3/4 and 1/8?' }]);
    expect(a).toContain('**7/8**');
    expect(a).toContain('\\frac{6}{8}');
    expect(a).toMatch(/^## /);
  });

  it('answers in Persian to a Persian question, subtracting when asked', () => {
    const a = fakeAnswer([{ role: 'user', content: '۳/۴ منهای ۱/۸ چند می‌شود؟' }]);
    expect(a).toContain('5/8');
    expect(a).toContain('قدم');
  });
});
