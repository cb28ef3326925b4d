/**
 * The answer guard (issue 16 §4): the tutor never states the final answer of a practice question, whatever the
 * model writes. It runs on the stream the learner receives, after the plain-text cleaning, and replaces every
 * form of the answer (`answerForms.ts`: any digits, words, the correct choice's text or letter) with a question
 * mark (`؟` in a Persian conversation, `?` in an English one).
 *
 * Streaming: matches are searched in the text not yet sent; the last {@link AnswerForms.maxLength} characters are
 * held back (a form may still be arriving, and a number may still grow: `12` → `125`), and a match that reaches
 * into them holds back from its start. A few characters already sent are kept as look-behind, so a form is judged
 * with what precedes it (`3.12` holds no `12`). For any split of a text into chunks the output is the same.
 */

import { type AnswerForms, type AnswerKey, answerForms } from './answerForms';
import { type Canon, canon } from './canon';

/** Characters already sent that are kept to judge what precedes a form. */
const LOOK_BEHIND = 4;

export interface AnswerGuard {
  /** Feeds text; returns the text that can be sent now, with the answer masked. */
  push(text: string): string;
  /** Flushes what is held back (masked); call once at the end. */
  end(): string;
}

/** The maximal numeric token of `c` around `[a, b)` (digits with `.` and `/` inside). */
function tokenAround(c: Canon, a: number, b: number): string {
  let start = a;
  let end = b;
  while (start > 0 && /[\d./]/.test(c.text[start - 1] as string)) start--;
  while (end < c.text.length && /[\d./]/.test(c.text[end] as string)) end++;
  return c.text.slice(start, end).replace(/^[./]+|[./]+$/g, '');
}

/** Canonical spans of the answer in `c` (protected question tokens left out). */
function answerSpans(c: Canon, forms: AnswerForms): [number, number][] {
  const spans: [number, number][] = [];
  for (const re of forms.patterns) {
    re.lastIndex = 0;
    for (const m of c.text.matchAll(re)) {
      const [a, b] = [m.index, m.index + m[0].length];
      if (b === a) continue;
      if (/^\d/.test(m[0]) && forms.protectedTokens.has(tokenAround(c, a, b))) continue;
      spans.push([a, b]);
    }
  }
  return spans;
}

/** A guard for one answer about the practice question `key`; `persian` picks the mask character. */
export function createAnswerGuard(key: AnswerKey, persian: boolean): AnswerGuard {
  const forms = answerForms(key);
  const mask = persian ? '؟' : '?';
  let behind = '';
  let pending = '';

  /** Masks and returns `pending` up to what may still change (all of it when `final`). */
  function flush(final: boolean): string {
    const text = behind + pending;
    const c = canon(text);
    const spans = answerSpans(c, forms)
      .map(([a, b]) => [c.map[a] as number, (c.map[b - 1] as number) + 1] as [number, number])
      .filter(([, b]) => b > behind.length)
      .sort((x, y) => x[0] - y[0]);
    let cut = final ? text.length : Math.max(behind.length, text.length - forms.maxLength);
    for (const [a, b] of spans) if (a < cut && b > cut) cut = Math.max(behind.length, a);
    let out = '';
    let at = behind.length;
    for (const [a, b] of spans) {
      if (b > cut || b <= at) continue;
      const from = Math.max(a, at);
      out += text.slice(at, from) + mask;
      at = b;
    }
    out += text.slice(at, cut);
    pending = text.slice(cut);
    behind = text.slice(0, cut).slice(-LOOK_BEHIND);
    return out;
  }

  return {
    push(text) {
      pending += text;
      return flush(false);
    },
    end() {
      return flush(true);
    },
  };
}
