/**
 * Turns the model's raw text deltas into what the learner receives (issue 5 §1, §4; issue 26 §3, §4):
 *
 * 1. The refusal marker (`prompt.ts` REFUSAL_MARKER; matched as `off_topic` / `off-topic` / `off topic` in any
 *    case, with or without `[[ ]]`) is looked for across chunk borders: a raw tail that could be the start of the
 *    marker is held back until it is decided.
 * 2. Everything else goes through the Markdown/LaTeX → plain text transformer (`plainText.ts`).
 * 3. The cleaned text is released sentence by sentence, so that words written before a marker never reach the
 *    learner:
 *    - the opening is held until it holds a whole sentence of at least {@link OPENING_MIN_CHARS} characters (the
 *      first sentence end at or after that many characters releases everything before it), or
 *      {@link OPENING_MAX_CHARS} characters without such an end (released up to the last space), or the model
 *      ended. A model's preamble before its marker ("Sorry, I only help with math! [[OFF_TOPIC]]") fits in it, so
 *      such an answer is the fixed refusal alone. The cost is time to the first byte: the time the model needs
 *      to write one sentence (typically 0.3–2 s after its first token);
 *    - after the opening, each sentence is released when it ends (at most {@link SENTENCE_MAX_CHARS} characters
 *      are held; a longer one is released up to its last space).
 *    A sentence ends at `.` `!` `?` `؟` `…` followed by a space or a line break, or at a line break; `3.5` and
 *    `7:30` do not end one. Whitespace at the end of what is released waits for the next release.
 * When the marker arrives, the sentence it is in and anything else held is dropped: the stream ends with the fixed
 * refusal text (after a blank line when earlier sentences were released), and the answer is `refused`: neither
 * stored nor cached (spec Errors). What is released depends only on the text, not on how it was cut into chunks.
 * {@link AnswerStream.cut} ends an answer early (the time limit): what is held and cannot begin a marker is sent,
 * then a blank line and a closing sentence.
 */
import { createPlainTextStream } from './plainText';

const MARKER = /\[{0,2}\s*off[\s_-]?topic\s*\]{0,2}/i;
/** Texts that could be the beginning of a marker: brackets, spaces, then a growing prefix of `off_topic]]`. */
const MARKER_PREFIX = /^\[{0,2}\s*(o(f(f([\s_-]?(t(o(p(i(c\s*\]{0,2})?)?)?)?)?)?)?)?)?$/i;
/** Longest tail of the raw text looked at: `[[` + spaces + `off_topic` + spaces + `]]`, with room for spaces. */
const MARKER_TAIL_MAX = 24;

/** Characters the opening must hold before its first sentence end releases it. */
export const OPENING_MIN_CHARS = 80;
/** Characters at most held back at the opening when no sentence has ended. */
export const OPENING_MAX_CHARS = 240;
/** Characters at most held back for one sentence after the opening. */
export const SENTENCE_MAX_CHARS = 160;

/** A sentence end: its punctuation followed by whitespace (lookahead), or a line break. */
const SENTENCE_END = /[.!?؟…]+(?=\s)|\n/g;

/**
 * Start of the tail of `text` held back: the longest tail that could begin the marker (as {@link MARKER}
 * spells it: brackets, spaces, `off`, one separator, `topic`, ...), or text.length.
 */
function partialMarkerStart(text: string): number {
  for (let k = Math.min(text.length, MARKER_TAIL_MAX); k > 0; k--) {
    if (MARKER_PREFIX.test(text.slice(-k))) return text.length - k;
  }
  return text.length;
}

/**
 * How much of the held cleaned text `held` may be released: up to the last sentence end at or after `min`
 * characters; else, when more than `max` characters are held, up to the last whitespace (or all of it); else 0.
 */
export function releasePoint(held: string, min: number, max: number): number {
  let point = 0;
  for (const m of held.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    if (end >= min) point = end;
  }
  if (point > 0 || held.length <= max) return point;
  const space = held.search(/\s\S*$/);
  return space > 0 ? space : held.length;
}

export interface AnswerStream {
  /** Feeds a model delta; returns the text to send now (possibly empty). Ignores input after the answer ended. */
  push(delta: string): string;
  /** Flushes what is held back; call once when the model is done. */
  end(): string;
  /**
   * Ends the answer before the model did (the time limit): what is held that cannot begin the marker, then
   * `closing` after a blank line (alone when nothing was written). Later calls return ''.
   */
  cut(closing: string): string;
  /** Whether the refusal marker arrived. */
  readonly refused: boolean;
  /** Whether the answer was cut ({@link cut}). */
  readonly cutShort: boolean;
  /** All text sent so far (what the learner has seen). */
  readonly sent: string;
}

/** A stream for one answer; `refusalText` is what a refusal sends (see the module doc). */
export function createAnswerStream(refusalText: string): AnswerStream {
  const plain = createPlainTextStream();
  let raw = '';
  /** Cleaned text not sent yet. */
  let held = '';
  let sent = '';
  let refused = false;
  let cutShort = false;
  const ended = () => refused || cutShort;

  /** Sends what `held` allows (all of it when `final`), keeping trailing whitespace (and `[`) for later. */
  const release = (final: boolean): string => {
    const opening = sent === '';
    const point = final
      ? held.length
      : releasePoint(held, opening ? OPENING_MIN_CHARS : 0, opening ? OPENING_MAX_CHARS : SENTENCE_MAX_CHARS);
    let out = held.slice(0, point);
    const keep = final ? 0 : (/[\s[]*$/.exec(out)?.[0].length ?? 0);
    out = out.slice(0, out.length - keep);
    held = held.slice(out.length);
    sent += out;
    return out;
  };
  /** Ends the answer with `text` after what was sent (a blank line between), dropping everything held. */
  const finish = (text: string): string => {
    held = '';
    raw = '';
    const out = (sent.trim() ? '\n\n' : '') + text;
    sent += out;
    return out;
  };
  /**
   * Feeds the raw text: up to a found marker (what was released before it, then the refusal), else up to a
   * possible marker's start; returns the text to send.
   */
  const absorb = (): string => {
    const match = MARKER.exec(raw);
    if (match) {
      held += plain.push(raw.slice(0, match.index));
      const before = release(false);
      refused = true;
      return before + finish(refusalText);
    }
    const cut = partialMarkerStart(raw);
    held += plain.push(raw.slice(0, cut));
    raw = raw.slice(cut);
    return release(false);
  };
  return {
    push(delta) {
      if (ended()) return '';
      raw += delta;
      return absorb();
    },
    end() {
      if (ended()) return '';
      if (MARKER.test(raw)) return absorb();
      held += plain.push(raw) + plain.end();
      raw = '';
      return release(true);
    },
    cut(closing) {
      if (ended()) return '';
      cutShort = true;
      held = (held + plain.push(raw.slice(0, partialMarkerStart(raw))) + plain.end()).replace(/\s+$/, '');
      const before = release(true);
      return before + finish(closing);
    },
    get refused() {
      return refused;
    },
    get cutShort() {
      return cutShort;
    },
    get sent() {
      return sent;
    },
  };
}
