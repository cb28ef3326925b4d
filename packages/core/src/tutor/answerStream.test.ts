import { describe, expect, it } from 'vitest';
import { createAnswerStream, OPENING_MAX_CHARS, OPENING_MIN_CHARS, releasePoint } from './answerStream';

const REFUSAL = 'I can only help with math.';
const CLOSING = 'My answer took too long.';

function run(chunks: string[], cutAt?: number) {
  const stream = createAnswerStream(REFUSAL);
  const pieces: string[] = [];
  for (const [i, c] of chunks.entries()) {
    if (i === cutAt) break;
    pieces.push(stream.push(c));
  }
  pieces.push(cutAt === undefined ? stream.end() : stream.cut(CLOSING));
  return { out: pieces.join(''), pieces, refused: stream.refused, cutShort: stream.cutShort, sent: stream.sent };
}

/** Every split of `text` into two chunks, and the text one character at a time. */
const splits = (text: string): string[][] => [
  ...Array.from({ length: text.length + 1 }, (_, cut) => [text.slice(0, cut), text.slice(cut)]),
  [...text],
];

const LONG =
  'To add 3/4 and 1/8, first make the denominators the same. The common denominator is 8, so 3/4 = 6/8. ' +
  'Then add the numerators: 6/8 + 1/8 = 7/8. So the answer is 7/8.';

describe('createAnswerStream', () => {
  it('passes a normal answer through the plain-text cleaner, the same for any split', () => {
    const r = run(['**Step', ' 1:** $\\frac{3}{4}$', ' of it']);
    expect(r).toMatchObject({ out: 'Step 1: 3/4 of it', refused: false, sent: 'Step 1: 3/4 of it' });
    for (const chunks of splits(LONG)) expect(run(chunks).out).toBe(LONG);
  });

  it('holds the opening until a sentence of at least OPENING_MIN_CHARS has ended, then releases sentence by sentence', () => {
    const stream = createAnswerStream(REFUSAL);
    expect(stream.push('Good question! ')).toBe(''); // a short first sentence is not enough
    expect(stream.push('To add 3/4 and 1/8, first make the denominators the same. The')).toBe('');
    expect(stream.push(' common denominator is 8')).toBe('');
    expect(stream.push(', so 3/4 = 6/8. Then')).toBe(
      'Good question! To add 3/4 and 1/8, first make the denominators the same. The common denominator is 8, so 3/4 = 6/8.',
    );
    expect(stream.push(' add: 3.5 is not a sentence end')).toBe('');
    expect(stream.push('\nA line break is.')).toBe(' Then add: 3.5 is not a sentence end');
    expect(stream.end()).toBe('\nA line break is.');
  });

  it('never holds more than its bounds: the opening at OPENING_MAX_CHARS, later sentences at their bound', () => {
    const words = 'word '.repeat(80); // 400 characters without a sentence end
    const stream = createAnswerStream(REFUSAL);
    let out = '';
    for (const c of words) {
      out += stream.push(c);
      expect(words.slice(0, out.length)).toBe(out);
      expect(stream.sent.length + OPENING_MAX_CHARS + 5).toBeGreaterThanOrEqual(out.length);
    }
    expect(out.length).toBeGreaterThan(words.length - 170);
    expect(releasePoint('short. And more', OPENING_MIN_CHARS, OPENING_MAX_CHARS)).toBe(0);
    expect(releasePoint(`${'x'.repeat(90)}. And more`, OPENING_MIN_CHARS, OPENING_MAX_CHARS)).toBe(91);
  });

  it('turns a marker in the opening into the refusal alone: the words before it never reach the learner', () => {
    expect(run(['[[OFF', '_TOPIC]]'])).toMatchObject({ out: REFUSAL, refused: true });
    expect(run(['OFF_TOPIC'])).toMatchObject({ out: REFUSAL, refused: true });
    expect(run(['off-topic'])).toMatchObject({ out: REFUSAL, refused: true });
    for (const text of [
      'Sorry, I can only help with math questions! [[OFF_TOPIC]]',
      'That sounds like a fun story. But I am a math tutor. [[OFF_TOPIC]] and more text',
      'متأسفم، من فقط در ریاضی کمک می‌کنم. [[OFF_TOPIC]]',
    ]) {
      for (const chunks of splits(text)) {
        const r = run(chunks);
        expect(r.out, JSON.stringify(chunks)).toBe(REFUSAL);
        expect(r.pieces.filter(Boolean), JSON.stringify(chunks)).toEqual([REFUSAL]);
        expect(r.refused).toBe(true);
      }
    }
  });

  it('ends a partly sent answer with the refusal when the marker comes later, dropping the sentence it is in', () => {
    const text = `${LONG} But now something else [[OFF_TOPIC]] and more text`;
    for (const chunks of splits(text)) {
      const r = run(chunks);
      expect(r.refused).toBe(true);
      expect(r.out).toBe(`${LONG}\n\n${REFUSAL}`);
      expect(r.out).not.toContain('something else');
    }
  });

  it('ignores everything after the marker', () => {
    const stream = createAnswerStream(REFUSAL);
    stream.push('[[OFF_TOPIC]]');
    expect(stream.push('more')).toBe('');
    expect(stream.end()).toBe('');
    expect(stream.cut(CLOSING)).toBe('');
  });

  it('does not mistake words that begin like the marker', () => {
    expect(run(['of course, one', ' off', 'er: 3'])).toMatchObject({ out: 'of course, one offer: 3', refused: false });
  });

  it('cuts an answer with what was written and the closing sentence after a blank line, never a possible marker', () => {
    const stream = createAnswerStream(REFUSAL);
    const first = stream.push(`${LONG} And the`);
    expect(first).toBe(LONG);
    expect(stream.push(' next step [[OFF')).toBe('');
    expect(stream.cut(CLOSING)).toBe(` And the next step\n\n${CLOSING}`);
    expect(stream.sent).toBe(`${LONG} And the next step\n\n${CLOSING}`);
    expect(stream.cutShort).toBe(true);
    expect(stream.push('more')).toBe('');
    expect(stream.end()).toBe('');
    // Cut before anything was written: the closing sentence alone.
    expect(createAnswerStream(REFUSAL).cut(CLOSING)).toBe(CLOSING);
  });
});
