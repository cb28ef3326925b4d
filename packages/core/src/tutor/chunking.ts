/**
 * Splits textbook text into retrieval chunks (issue 5 §3).
 *
 * Units are paragraphs (lines) and sentences (ending in `.`, `!`, `?`, `؟` followed by a space); units are
 * packed greedily into chunks of at most {@link CHUNK_MAX} characters, aiming at {@link CHUNK_TARGET}. Each
 * chunk after the first starts with the last whole units of the previous one, up to {@link CHUNK_OVERLAP}
 * characters, so an explanation cut at a chunk border is still found whole in one of the two. A unit longer
 * than CHUNK_MAX is cut at spaces.
 */

/** A chunk is closed once it reaches this many characters. */
export const CHUNK_TARGET = 700;
/** No chunk is longer than this (overlap included). */
export const CHUNK_MAX = 800;
/** Characters of whole units carried over from the previous chunk. */
export const CHUNK_OVERLAP = 150;

interface Unit {
  text: string;
  /** The unit begins a paragraph (joined with a newline, not a space). */
  paragraph: boolean;
}

/** Paragraphs and sentences of `text`, whitespace collapsed, none empty. */
function units(text: string): Unit[] {
  const out: Unit[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n+/)) {
    const sentences = paragraph.split(/(?<=[.!?؟])\s+/);
    let first = true;
    const push = (t: string) => {
      out.push({ text: t, paragraph: first });
      first = false;
    };
    for (const s of sentences) {
      const trimmed = s.replace(/\s+/g, ' ').trim();
      if (!trimmed) continue;
      // A unit longer than a chunk is cut at spaces.
      let rest = trimmed;
      while (rest.length > CHUNK_MAX - CHUNK_OVERLAP) {
        const limit = CHUNK_MAX - CHUNK_OVERLAP;
        const cut = rest.lastIndexOf(' ', limit);
        const at = cut > limit / 2 ? cut : limit;
        push(rest.slice(0, at).trim());
        rest = rest.slice(at).trim();
      }
      if (rest) push(rest);
    }
  }
  return out;
}

/**
 * The chunks of `text` (see the module doc). Sentences of one paragraph are joined with a space, paragraphs
 * with a newline. Returns [] for text without any non-space character.
 */
export function chunkText(text: string): string[] {
  const all = units(text);
  const chunks: string[] = [];
  const join = (list: Unit[]) => list.map((u, i) => (i === 0 ? u.text : `${u.paragraph ? '\n' : ' '}${u.text}`)).join('');
  let current: Unit[] = [];
  let length = 0;
  let fresh = 0; // units in `current` that are not overlap
  const close = () => {
    if (fresh === 0) return;
    chunks.push(join(current));
    const carried: Unit[] = [];
    let carriedLength = 0;
    for (let i = current.length - 1; i >= 0; i--) {
      const unit = current[i] as Unit;
      if (carriedLength + unit.text.length + 1 > CHUNK_OVERLAP) break;
      carried.unshift(unit);
      carriedLength += unit.text.length + 1;
    }
    current = carried;
    length = carriedLength;
    fresh = 0;
  };
  for (const unit of all) {
    if (fresh > 0 && length + unit.text.length + 1 > CHUNK_MAX) close();
    if (length + unit.text.length + 1 > CHUNK_MAX) {
      // Even with only the overlap the unit does not fit: drop the overlap.
      current = [];
      length = 0;
    }
    current.push(unit);
    length += unit.text.length + 1;
    fresh++;
    if (length >= CHUNK_TARGET) close();
  }
  close();
  return chunks;
}
