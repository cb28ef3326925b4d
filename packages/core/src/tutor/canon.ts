/**
 * A canonical form of a text that remembers where each of its characters came from (issue 16 §3, §4): the safety
 * screen finds personal data in it and redacts the original; the answer guard finds a practice question's answer
 * in it and masks the original, whatever digits and letter forms the text was written with.
 *
 * Per character: Persian (۰-۹) and Arabic-Indic (٠-٩) digits → ASCII, `٫` → `.`; ي ى → ی, ك → ک, ة → ه; Latin lower
 * case; ZWNJ/ZWJ and any whitespace → one space each; diacritics and tatweel dropped; a thousands separator (`٬`,
 * or `,` followed by exactly three digits) between digits dropped, so `۴۷٬۳۰۵` and `47,305` read `47305`.
 * Unlike `text.ts` fold, spaces are not collapsed: every canonical character maps to one original character.
 */

export interface Canon {
  /** The canonical text. */
  text: string;
  /** `map[i]`: index in the original of canonical character i; `map[text.length]` = the original's length. */
  map: number[];
}

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';
const LETTERS: Record<string, string> = { ي: 'ی', ى: 'ی', ك: 'ک', ة: 'ه', '٫': '.' };

const isDigit = (c: string | undefined) => c !== undefined && /[0-9۰-۹٠-٩]/.test(c);

/** The canonical character of `c`, or '' when it is dropped. */
function canonChar(c: string): string {
  const p = PERSIAN_DIGITS.indexOf(c);
  if (p >= 0) return String(p);
  const a = ARABIC_DIGITS.indexOf(c);
  if (a >= 0) return String(a);
  if (LETTERS[c]) return LETTERS[c];
  if (/[\u064B-\u065F\u0670\u0640]/.test(c)) return '';
  if (c === '\u200C' || c === '\u200D' || /\s/.test(c)) return ' ';
  const lower = c.toLowerCase();
  return lower.length === 1 ? lower : c;
}

/** Whether `original[i]` is a thousands separator between digits (see the module doc). */
function isThousandsSeparator(original: string, i: number): boolean {
  const c = original[i];
  if ((c !== '٬' && c !== ',') || !isDigit(original[i - 1])) return false;
  if (c === '٬') return isDigit(original[i + 1]);
  return isDigit(original[i + 1]) && isDigit(original[i + 2]) && isDigit(original[i + 3]) && !isDigit(original[i + 4]);
}

/** The canonical form of `original` with its index map (see the module doc). */
export function canon(original: string): Canon {
  let text = '';
  const map: number[] = [];
  for (let i = 0; i < original.length; i++) {
    if (isThousandsSeparator(original, i)) continue;
    const out = canonChar(original[i] as string);
    if (out === '') continue;
    text += out;
    map.push(i);
  }
  map.push(original.length);
  return { text, map };
}

/** The original range `[start, end)` of the canonical range `[from, to)` (to > from). */
export const originalRange = (c: Canon, from: number, to: number): [number, number] => [
  c.map[from] as number,
  (c.map[to - 1] as number) + 1,
];

/**
 * `original` with the canonical ranges `spans` replaced by `replacement` (overlapping and touching ranges merged).
 */
export function replaceSpans(
  original: string,
  c: Canon,
  spans: [number, number][],
  replacement: (span: [number, number]) => string,
): string {
  const ranges = spans
    .filter(([a, b]) => b > a)
    .map(([a, b]) => originalRange(c, a, b))
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  let out = '';
  let at = 0;
  for (const r of merged) {
    out += original.slice(at, r[0]) + replacement(r);
    at = r[1];
  }
  return out + original.slice(at);
}
