/**
 * Turns the model's raw text deltas into what the learner receives (issue 5 §1, §4):
 *
 * 1. The late refusal marker (`prompt.ts` REFUSAL_MARKER; matched as `off_topic` / `off-topic` / `off topic` in
 *    any case, with or without `[[ ]]`) is looked for across chunk borders: a tail that could be the start of
 *    the marker is held back until it is decided, and so is cleaned text ending in whitespace (a refusal drops
 *    the whitespace before it), so the learner gets the same text however the model's stream was cut. When the marker arrives, the model's text from the marker on
 *    is dropped, and the stream ends with the fixed refusal text (after a blank line when part of an answer was
 *    already sent). The answer is then `refused`: neither stored nor cached (spec Errors).
 * 2. Everything else goes through the Markdown/LaTeX → plain text transformer (`plainText.ts`).
 */
import { createPlainTextStream } from './plainText';

const MARKER = /\[{0,2}\s*off[\s_-]?topic\s*\]{0,2}/i;
/** Texts that could be the beginning of a marker: brackets, spaces, then a growing prefix of `off_topic]]`. */
const MARKER_PREFIX = /^\[{0,2}\s*(o(f(f([\s_-]?(t(o(p(i(c\s*\]{0,2})?)?)?)?)?)?)?)?)?$/i;
/** Longest tail of the raw text looked at: `[[` + spaces + `off_topic` + spaces + `]]`, with room for spaces. */
const MARKER_TAIL_MAX = 24;

/**
 * Start of the tail of `text` held back: the longest tail that could begin the marker (as {@link MARKER}
 * spells it: brackets, spaces, `off`, one separator, `topic`, ...), with the whitespace before it (so that a
 * refusal does not follow a dangling space), or text.length.
 */
function partialMarkerStart(text: string): number {
  let start = text.length;
  for (let k = Math.min(text.length, MARKER_TAIL_MAX); k > 0; k--) {
    if (MARKER_PREFIX.test(text.slice(-k))) {
      start = text.length - k;
      break;
    }
  }
  while (start > 0 && /\s/.test(text[start - 1] as string)) start--;
  return start;
}

export interface AnswerStream {
  /** Feeds a model delta; returns the text to send now (possibly empty). Ignores input after a refusal. */
  push(delta: string): string;
  /** Flushes what is held back; call once when the model is done. */
  end(): string;
  /** Whether the refusal marker arrived. */
  readonly refused: boolean;
  /** All text sent so far (what the learner has seen). */
  readonly sent: string;
}

/** A stream for one answer; `refusalText` is appended when the marker arrives. */
export function createAnswerStream(refusalText: string): AnswerStream {
  const plain = createPlainTextStream();
  let raw = '';
  let refused = false;
  let sent = '';
  /** Cleaned text ending in whitespace is held back until more text follows: a refusal drops it (see refuse). */
  let pendingSpace = '';
  const emit = (cleaned: string, final = false) => {
    const text = pendingSpace + cleaned;
    const keep = final ? 0 : (/[\s[]*$/.exec(text)?.[0].length ?? 0);
    pendingSpace = text.slice(text.length - keep);
    const out = text.slice(0, text.length - keep);
    sent += out;
    return out;
  };
  const refuse = (before: string) => {
    refused = true;
    const flushed = (pendingSpace + plain.push(before) + plain.end()).replace(/[\s[]+$/, '');
    pendingSpace = '';
    const separator = (sent + flushed).trim() ? '\n\n' : '';
    return emit(flushed + separator + refusalText, true);
  };
  return {
    push(delta) {
      if (refused) return '';
      raw += delta;
      const match = MARKER.exec(raw);
      if (match) return refuse(raw.slice(0, match.index));
      const cut = partialMarkerStart(raw);
      const ready = raw.slice(0, cut);
      raw = raw.slice(cut);
      return emit(plain.push(ready));
    },
    end() {
      if (refused) return '';
      const match = MARKER.exec(raw);
      if (match) return refuse(raw.slice(0, match.index));
      const out = plain.push(raw) + plain.end();
      raw = '';
      return emit(out, true);
    },
    get refused() {
      return refused;
    },
    get sent() {
      return sent;
    },
  };
}
