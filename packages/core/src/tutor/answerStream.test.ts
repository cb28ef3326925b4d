import { describe, expect, it } from 'vitest';
import { createAnswerStream } from './answerStream';

const REFUSAL = 'I can only help with math.';

function run(chunks: string[]) {
  const stream = createAnswerStream(REFUSAL);
  const out = chunks.map((c) => stream.push(c)).join('') + stream.end();
  return { out, refused: stream.refused, sent: stream.sent };
}

describe('createAnswerStream', () => {
  it('passes a normal answer through the plain-text cleaner', () => {
    const r = run(['**Step', ' 1:** $\\frac{3}{4}$', ' of it']);
    expect(r).toEqual({ out: 'Step 1: 3/4 of it', refused: false, sent: 'Step 1: 3/4 of it' });
  });

  it('turns a marker at the start into the refusal text only', () => {
    expect(run(['[[OFF', '_TOPIC]]'])).toMatchObject({ out: REFUSAL, refused: true });
    expect(run(['OFF_TOPIC'])).toMatchObject({ out: REFUSAL, refused: true });
    expect(run(['off-topic'])).toMatchObject({ out: REFUSAL, refused: true });
  });

  it('ends a partly sent answer with the refusal when the marker arrives late, whatever the split', () => {
    const text = 'Well, 3 + 4 = 7. [[OFF_TOPIC]] and more text';
    for (let cut = 0; cut <= text.length; cut++) {
      const r = run([text.slice(0, cut), text.slice(cut)]);
      expect(r.refused, `cut ${cut}`).toBe(true);
      expect(r.out, `cut ${cut}`).toBe(`Well, 3 + 4 = 7.\n\n${REFUSAL}`);
      expect(r.out).not.toContain('OFF');
    }
  });

  it('ignores everything after the marker', () => {
    const stream = createAnswerStream(REFUSAL);
    stream.push('[[OFF_TOPIC]]');
    expect(stream.push('more')).toBe('');
    expect(stream.end()).toBe('');
  });

  it('does not mistake words that begin like the marker', () => {
    expect(run(['of course, one', ' off', 'er: 3'])).toMatchObject({ out: 'of course, one offer: 3', refused: false });
  });
});
