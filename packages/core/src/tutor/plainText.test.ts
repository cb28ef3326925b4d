import { describe, expect, it } from 'vitest';
import { createPlainTextStream, MAX_HOLD, toPlainText } from './plainText';

/** Output of the stream for `text` cut into chunks at `cuts`. */
function streamed(text: string, cuts: number[]): { out: string; pieces: string[] } {
  const stream = createPlainTextStream();
  const pieces: string[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    pieces.push(stream.push(text.slice(from, cut)));
    from = cut;
  }
  pieces.push(stream.end());
  return { out: pieces.join(''), pieces };
}

const cases: [string, string][] = [
  ['**Step 1:** add them', 'Step 1: add them'],
  ['# Adding fractions\nFirst', 'Adding fractions\nFirst'],
  ['### Title', 'Title'],
  ['Intro\n## Heading\ntext', 'Intro\nHeading\ntext'],
  ['$\\frac{3}{4} + \\frac{1}{8}$', '3/4 + 1/8'],
  ['$$\\frac{3}{4}=\\frac{6}{8}$$', '3/4=6/8'],
  ['\\(\\frac{x+1}{2}\\)', '(x+1)/2'],
  ['\\[ 3 \\times 4 = 12 \\]', ' 3 × 4 = 12 '],
  ['$6 \\div 2$ and $2 \\cdot 3$', '6 ÷ 2 and 2 · 3'],
  ['\\sqrt{16} = 4', '√16 = 4'],
  ['\\text{area} = 6 \\cdot 4', 'area = 6 · 4'],
  ['x^{2} \\le 9', 'x^2 ≤ 9'],
  ['\\frac 34', '3/4'],
  ['\\dfrac{\\frac{1}{2}}{3}', '(1/2)/3'],
  ['- first\n- second', '• first\n• second'],
  ['* one\n+ two', '• one\n• two'],
  ['  - nested', '• nested'],
  ['> quoted', 'quoted'],
  ['a\n---\nb', 'a\n\nb'],
  ['```text\n3 + 4 = 7\n```\ndone', '\n3 + 4 = 7\n\ndone'],
  ['use `3/4` here', 'use 3/4 here'],
  ['see [the book](https://example.com/x) now', 'see the book now'],
  ['![pic](https://e.x/p.png)', 'pic'],
  ['3 * 4 = 12', '3 × 4 = 12'],
  ['3*4', '3×4'],
  ['*italic* and **bold**', 'italic and bold'],
  ['-5 is less than 0', '-5 is less than 0'],
  ['1. first\n2. second', '1. first\n2. second'],
  ['fill in: 3 + ___ = 5', 'fill in: 3 + ___ = 5'],
  ['[not a link] here', '[not a link] here'],
  ['Great job!', 'Great job!'],
  ['۳/۴ + ۱/۸ = **۷/۸**', '۳/۴ + ۱/۸ = ۷/۸'],
  ['\\frac{۳}{۴}', '۳/۴'],
  ['\\constructor x', 'constructor x'],
  ['a \\\\ b', 'a \n b'],
  ['50\\% off', '50% off'],
];

describe('toPlainText', () => {
  it.each(cases)('%j → %j', (input, expected) => {
    expect(toPlainText(input)).toBe(expected);
  });
});

describe('createPlainTextStream', () => {
  it.each(cases)('gives the same output for every split point of %j', (input, expected) => {
    for (let cut = 0; cut <= input.length; cut++) {
      expect(streamed(input, [cut]).out, `cut at ${cut}`).toBe(expected);
    }
  });

  it('gives the same output when every character is its own chunk', () => {
    for (const [input, expected] of cases) {
      const cuts = Array.from({ length: input.length }, (_, i) => i);
      expect(streamed(input, cuts).out, input).toBe(expected);
    }
  });

  it('holds back a construct split over chunks and releases it when complete', () => {
    const stream = createPlainTextStream();
    expect(stream.push('Add **')).toBe('Add ');
    expect(stream.push('*')).toBe('');
    expect(stream.push('*this** now \\fr')).toBe('this now ');
    expect(stream.push('ac{3}{')).toBe('');
    expect(stream.push('4}.')).toBe('3/4.');
    expect(stream.end()).toBe('');
  });

  it('emits plain text right away (nothing held back without a reason)', () => {
    const stream = createPlainTextStream();
    expect(stream.push('Hello there, ')).toBe('Hello there, ');
    expect(stream.push('friend')).toBe('friend');
  });

  it('never holds more than MAX_HOLD characters', () => {
    const stream = createPlainTextStream();
    let out = stream.push('\\frac{');
    out += stream.push('1'.repeat(MAX_HOLD + 10));
    expect(out.length).toBeGreaterThan(MAX_HOLD);
    expect(out).not.toContain('\\');
  });
});
