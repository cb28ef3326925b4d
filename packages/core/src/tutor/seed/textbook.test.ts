import { describe, expect, it } from 'vitest';
import { textbookExcerpts } from './textbook';

describe('textbook excerpts', () => {
  it('has 3 excerpts per grade, 150-400 words each, pointing at lessons of that grade', () => {
    for (const gradeId of [4, 5]) expect(textbookExcerpts.filter((e) => e.gradeId === gradeId)).toHaveLength(3);
    expect(textbookExcerpts).toHaveLength(6);
    for (const e of textbookExcerpts) {
      expect(e.title.trim()).not.toBe('');
      const words = e.text.trim().split(/\s+/).length;
      expect(words, e.title).toBeGreaterThanOrEqual(150);
      expect(words, e.title).toBeLessThanOrEqual(400);
      // A lesson id is `grade*10000 + n*10 + l` (n: node within the grade; curriculum/seed/types.ts); that the lesson exists is
      // checked when the local stack ingests the excerpts (tests/tutor.test.ts).
      if (e.lessonId !== undefined) expect(Math.floor(e.lessonId / 10_000), e.title).toBe(e.gradeId);
    }
  });
});
