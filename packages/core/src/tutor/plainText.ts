/**
 * Markdown and LaTeX → plain text, as a stream (issue 5 §1: "No LaTeX or markdown reaches the child: the
 * prompt asks for plain text and the stream is cleaned on the server as it flows"; spec Endpoints: "Streamed
 * plain-text answer (no LaTeX or markdown)").
 *
 * What is rewritten:
 * - at the start of a line: headings `# `…`###### ` and quotes `> ` are removed, bullets `- ` `* ` `+ `
 *   become `• `, horizontal rules (`---`, `***`, `___`) and code-fence lines (```` ```lang ````) are dropped,
 *   indentation is removed;
 * - inline: `**` (bold) and other `*` are removed, except a single `*` between two numbers, which becomes `×`;
 *   backticks are removed; `[text](url)` and `![text](url)` become `text`;
 * - LaTeX: the delimiters `$` and `$$` are removed, backslash commands as `latex.ts` describes (`\frac{a}{b}` →
 *   `a/b`, `\times` → ×, …); braces `{` `}` are removed (so `x^{2}` → `x^2`).
 * - Kept on purpose: underscores (children's exercises use `___` as a blank), numbered lists (`1. `, plain
 *   text), `^` (`3^2` is readable).
 *
 * Streaming: a construct may arrive split over chunks (`*` + `*`, `\fr` + `ac{3}{4}`, `\n#` + `# Title`). The
 * transformer emits everything up to the first construct that is not complete yet and holds that tail back
 * (a bounded look-behind buffer, {@link MAX_HOLD} characters); the held text is emitted as soon as the next
 * chunk completes it. For any split of a text into chunks the output is the same as for the whole text, as
 * long as no construct is longer than MAX_HOLD (then the buffer is flushed as if the text ended there).
 */
import { type Parsed, parseBackslash } from './latex';

/** Most characters held back while waiting for a construct to complete. */
export const MAX_HOLD = 256;

/** Longest link text and link URL recognized in `[text](url)`. */
const LINK_TEXT_MAX = 120;
const LINK_URL_MAX = 120;

interface State {
  /** The next input character starts a line. */
  atLineStart: boolean;
  /** The last non-space input character consumed (for `3 * 4` → `3 × 4`). */
  prevNonSpace: string;
}

const isDigit = (c: string | undefined) => c !== undefined && /[0-9۰-۹٠-٩]/.test(c);

/** `[text](url)` or `![text](url)` at `i` (text[i] is `[` or `!`); null when it is not a link. */
function parseLink(text: string, i: number, final: boolean): Parsed | null {
  const open = text[i] === '!' ? i + 1 : i;
  if (text[open] !== '[') return open >= text.length && !final ? undefined : null;
  const close = text.indexOf(']', open + 1);
  if (close < 0) return text.length - open <= LINK_TEXT_MAX && !final ? undefined : null;
  if (close - open - 1 > LINK_TEXT_MAX || text.slice(open + 1, close).includes('\n')) return null;
  if (close + 1 >= text.length) return final ? null : undefined;
  if (text[close + 1] !== '(') return null;
  const end = text.indexOf(')', close + 2);
  if (end < 0) return text.length - close <= LINK_URL_MAX && !final ? undefined : null;
  if (end - close - 2 > LINK_URL_MAX || /\s/.test(text.slice(close + 2, end))) return null;
  return { out: convertAll(text.slice(open + 1, close)), end: end + 1 };
}

/** Line-start markup at `i`: what to emit and where the rest of the line begins; null = nothing to strip. */
function parseLineStart(text: string, i: number, final: boolean): Parsed | null {
  const lineEnd = text.indexOf('\n', i);
  const line = text.slice(i, lineEnd < 0 ? text.length : lineEnd);
  const complete = lineEnd >= 0 || final;
  const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
  const rest = line.slice(indent);
  if (rest === '') return complete ? { out: '', end: i + indent } : undefined;
  if (/^(`{3,}|~{3,})/.test(rest)) return complete ? { out: '', end: i + line.length } : undefined;
  if (/^(-{3,}|\*{3,}|_{3,})[ \t]*$/.test(rest)) return complete ? { out: '', end: i + line.length } : undefined;
  // Markers still ambiguous: `#`, `-`, `*`, `>`, `` ` ``, `~`, `__` runs that the next character decides.
  if (!complete && /^(#{1,6}|[-*+>]|-{1,2}|\*{1,2}|_{1,2}|`{1,2}|~{1,2})$/.test(rest)) return undefined;
  // A marker's run of spaces may go on in the next chunk (`# ` + ` Title`): while it reaches the end of the
  // unfinished line, wait, so that every split strips the same spaces as the whole text.
  const markers: [RegExp, string][] = [
    [/^#{1,6}[ \t]*/, ''], // heading
    [/^>[ \t]?/, ''], // quote
    [/^[-*+][ \t]+/, '• '], // bullet
  ];
  for (const [pattern, out] of markers) {
    const marker = pattern.exec(rest);
    if (!marker) continue;
    const end = i + indent + marker[0].length;
    return !complete && end >= text.length ? undefined : { out, end };
  }
  return { out: '', end: i + indent };
}

/**
 * Converts `text` from `state`, stopping before the first construct that needs more input (unless `final`).
 * Returns the output, how many characters were consumed, and the state after them.
 */
function convert(text: string, state: State, final: boolean): { out: string; consumed: number; state: State } {
  let out = '';
  let i = 0;
  let { atLineStart, prevNonSpace } = state;
  const done = () => ({ out, consumed: i, state: { atLineStart, prevNonSpace } });
  while (i < text.length) {
    if (atLineStart) {
      const start = parseLineStart(text, i, final);
      if (start === undefined) return done();
      atLineStart = false;
      if (start) {
        out += start.out;
        i = start.end;
        continue;
      }
    }
    const c = text[i] as string;
    let parsed: Parsed | null = null;
    if (c === '\n') {
      out += c;
      i++;
      atLineStart = true;
      continue;
    }
    if (c === '\\') {
      parsed = parseBackslash(text, i, final, convertAll);
      if (parsed === undefined) return done();
    } else if (c === '[' || c === '!') {
      parsed = parseLink(text, i, final);
      if (parsed === undefined) return done();
    } else if (c === '*') {
      let j = i;
      while (text[j] === '*') j++;
      let k = j;
      while (text[k] === ' ') k++;
      if (k >= text.length && !final) return done();
      const times = j - i === 1 && isDigit(prevNonSpace) && isDigit(text[k]);
      out += times ? '×' : '';
      i = j;
      prevNonSpace = '*';
      continue;
    } else if (c === '$' || c === '`' || c === '{' || c === '}') {
      i++;
      continue;
    }
    if (parsed) {
      out += parsed.out;
      prevNonSpace = text[parsed.end - 1] ?? prevNonSpace;
      i = parsed.end;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) prevNonSpace = c;
    i++;
  }
  return done();
}

/** Converts a whole text (nothing more will come). */
function convertAll(text: string): string {
  return convert(text, { atLineStart: false, prevNonSpace: '' }, true).out;
}

export interface PlainTextStream {
  /** Feeds a chunk of model text; returns the plain text that can be sent now (possibly empty). */
  push(chunk: string): string;
  /** The text still held back, converted: call once when the model is done. */
  end(): string;
}

/** A streaming Markdown/LaTeX → plain text transformer (see the module doc). */
export function createPlainTextStream(): PlainTextStream {
  let pending = '';
  let state: State = { atLineStart: true, prevNonSpace: '' };
  return {
    push(chunk) {
      pending += chunk;
      const step = convert(pending, state, false);
      state = step.state;
      pending = pending.slice(step.consumed);
      let out = step.out;
      if (pending.length > MAX_HOLD) {
        const forced = convert(pending, state, true);
        state = forced.state;
        pending = '';
        out += forced.out;
      }
      return out;
    },
    end() {
      const step = convert(pending, state, true);
      pending = '';
      state = step.state;
      return step.out;
    },
  };
}

/** Plain text of a whole answer (the same rules, in one go). */
export function toPlainText(text: string): string {
  const stream = createPlainTextStream();
  return stream.push(text) + stream.end();
}
