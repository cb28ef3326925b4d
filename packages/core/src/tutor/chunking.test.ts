import { describe, expect, it } from 'vitest';
import { CHUNK_MAX, chunkText } from './chunking';
import { textbookExcerpts } from './seed/textbook';

describe('chunkText', () => {
  it('returns nothing for blank text and one chunk for a short text', () => {
    expect(chunkText('  \n ')).toEqual([]);
    expect(chunkText('One sentence. Two sentences.\nA new paragraph.')).toEqual(['One sentence. Two sentences.\nA new paragraph.']);
  });

  it('keeps every chunk within CHUNK_MAX, loses no sentence, and overlaps neighbours', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} explains a small idea about fractions.`);
    const chunks = chunkText(sentences.join(' '));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_MAX);
    for (const s of sentences) expect(chunks.some((c) => c.includes(s))).toBe(true);
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrevious = (chunks[i - 1] as string).split(/(?<=\.) /).at(-1) as string;
      const at = (chunks[i] as string).indexOf(lastOfPrevious);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(at).toBeLessThan(150);
    }
  });

  it('cuts a sentence longer than a chunk at spaces', () => {
    const long = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkText(long);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_MAX);
    expect(chunks.join(' ')).toContain('w0 w1');
    expect(chunks.at(-1)).toContain('w399');
  });

  it('chunks the seed textbook excerpts', () => {
    for (const e of textbookExcerpts) {
      const chunks = chunkText(e.text);
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_MAX);
    }
  });
});
