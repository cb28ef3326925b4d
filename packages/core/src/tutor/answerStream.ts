/**
 * Turns the model's raw text deltas into what the learner receives (issue 5 §1, §4):
 *
 * 1. The late refusal marker (`prompt.ts` REFUSAL_MARKER; matched as `off_topic` / `off-topic` / `off topic` in
 *    any case, with or without `[[ ]]`) is looked for across chunk borders: a tail that could be the start of
 *    the marker is held back until it is decided. When the marker arrives, the model's text from the marker on
 *    is dropped, and the stream ends with the fixed refusal text (after a blank line when part of an answer was
 *    already sent). The answer is then `refused`: neither stored nor cached (spec Errors).
 * 2. Everything else goes through the Markdown/LaTeX → plain text transformer (`plainText.ts`).
 */
import { createPlainTextStream } from './plainText';

const MARKER = /\[{0,2}\s*off[\s_-]?topic\s*\]{0,2}/i;
/** Canonical forms whose prefixes are held back at the end of a chunk. */
const MARKER_PREFIXES = ['[[off_topic', '[off_topic', 'off_topic'];
const canonical = (s: string) => s.toLowerCase().replace(/[\s-]/g, '_');

/**
 * Start of the tail of `text` held back: the longest tail that could begin the marker, with the whitespace
 * before it (so that a refusal does not follow a dangling space), or text.length.
 */
function partialMarkerStart(text: string): number {
  let start = text.length;
  for (let k = Math.min(text.length, 12); k > 0; k--) {
    const tail = canonical(text.slice(-k));
    if (MARKER_PREFIXES.some((p) => p.startsWith(tail))) {
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
  const emit = (s: string) => {
    sent += s;
    return s;
  };
  const refuse = (before: string) => {
    refused = true;
    const flushed = plain.push(before) + plain.end();
    const separator = (sent + flushed).trim() ? '\n\n' : '';
    return emit(flushed.replace(/[\s[]+$/, '') + separator + refusalText);
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
      return emit(out);
    },
    get refused() {
      return refused;
    },
    get sent() {
      return sent;
    },
  };
}
