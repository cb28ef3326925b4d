/**
 * Word matching of the tutor's gate (issue 16 §1): how a learner's words are compared with the gate's lexicons.
 *
 * Children type Persian with Arabic letter forms, ZWNJ or no space at all, colloquial suffixes and spelling by
 * sound; English with typos. So a token matches a lexicon word when, after {@link sound} folding:
 * - it is the word, or the word with a suffix children attach (`کسرها`, `جمعش`, `بازیشو`; `fractions`, `adding`), also
 *   in place of a final ه as spoken Persian does (`گربم` for `گربه‌ام`);
 * - or it is one or two typing slips away (Levenshtein distance, `fastest-levenshtein`): 1 for words of 5 to 7
 *   letters, 2 from 8 letters on, same first letter. Shorter words must be exact (`add`), and Persian words
 *   shorter than 6 letters too (`داره` is not `دایره`): their misspellings are mostly by sound, folded above.
 * A phrase (`how many`, `جام جهانی`) matches consecutive tokens, or its letters without spaces inside one token
 * (`جامجهانی`, `میخوام`).
 */
import { distance } from 'fastest-levenshtein';
import { fold } from '../text';

/**
 * Persian letters that children swap for others of the same sound (ص ث → س, ض ظ ذ → ز, ط → ت, ح → ه, غ → ق),
 * folded on both sides: `کصر` matches `کسر`, `مساهت` matches `مساحت`.
 */
const SOUNDS: Record<string, string> = {
  ص: 'س',
  ث: 'س',
  ض: 'ز',
  ظ: 'ز',
  ذ: 'ز',
  ط: 'ت',
  ح: 'ه',
  غ: 'ق',
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ؤ: 'و',
  ئ: 'ی',
};
export const sound = (word: string): string => word.replace(/[صثضظذطحغأإآؤئ]/g, (c) => SOUNDS[c] ?? c);

/** Suffixes a Persian word may carry, attached without a space (plural, possessive, object, colloquial). */
const FA_SUFFIXES = [
  'ها',
  'های',
  'هایی',
  'هارو',
  'هاش',
  'هاشو',
  'هام',
  'هامو',
  'هات',
  'هاتو',
  'هامون',
  'هاتون',
  'هاشون',
  'ش',
  'شو',
  'شون',
  'م',
  'مو',
  'ت',
  'تو',
  'مون',
  'تون',
  'ی',
  'یش',
  'ای',
  'اش',
  'ام',
  'ات',
  'رو',
  'را',
  'و',
  'ه',
  'یه',
  'ست',
  'تر',
  'ترین',
];
/** Personal suffixes that replace a word's final ه in spoken Persian. */
const SPOKEN_SUFFIXES = ['م', 'ت', 'ش', 'مون', 'تون', 'شون', 'مو', 'تو', 'شو'];
const EN_SUFFIXES = ['s', 'es', 'ing', 'ed', 'd', 'er', 'ers', "'s"];

const isPersianWord = (w: string) => /[\u0600-\u06FF]/.test(w);

/**
 * The text's tokens: folded (`text.ts`), sound-folded, a letter repeated three times or more written once, split on
 * anything that is not a letter or a digit.
 */
export function tokenize(text: string): string[] {
  return sound(fold(text))
    .replace(/(\p{L})\1{2,}/gu, '$1') // letters stretched for emphasis: `hiiii`, `سلاااام`
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Every word of every compiled lexicon: a token that is itself a known word is no typing slip of another
 * (`math` is not `match`).
 */
const KNOWN = new Set<string>();

/** Whether token `t` is the lexicon word `w` (both tokenized), with a suffix or a slip (see the module doc). */
export function wordMatches(t: string, w: string, options: { fuzzy?: boolean } = {}): boolean {
  if (t === w) return true;
  if (t.startsWith(w) && w.length >= 2) {
    const rest = t.slice(w.length);
    if ((isPersianWord(w) ? FA_SUFFIXES : EN_SUFFIXES).includes(rest)) return true;
  }
  // Spoken Persian drops a final ه before a personal suffix: `گربم` (گربه‌ام), `خونت`, `مدرسمون`.
  if (w.length >= 3 && w.endsWith('ه') && isPersianWord(w) && t.startsWith(w.slice(0, -1))) {
    if (SPOKEN_SUFFIXES.includes(t.slice(w.length - 1))) return true;
  }
  if (options.fuzzy === false || w.length < (isPersianWord(w) ? 6 : 5) || /\d/.test(w) || KNOWN.has(t)) return false;
  if (t[0] !== w[0] || Math.abs(t.length - w.length) > 2) return false;
  return distance(t, w) <= (w.length >= 8 ? 2 : 1);
}

/** A lexicon entry prepared for matching: its tokens and its letters without spaces. */
export interface Entry {
  words: string[];
  joined: string;
}

export const entry = (phrase: string): Entry => {
  const words = tokenize(phrase);
  return { words, joined: words.join('') };
};

/**
 * Whether `e` occurs in `tokens` (consecutive tokens, each {@link wordMatches}), or as one token spelled without
 * spaces. `fuzzy: false` for short, ambiguous entries.
 */
export const phraseAt = (tokens: string[], e: Entry, fuzzy = true): boolean => phraseSpans(tokens, e, fuzzy).length > 0;

/** Where `e` occurs in `tokens`: `[start, end)` token ranges (see {@link phraseAt}). */
export function phraseSpans(tokens: string[], e: Entry, fuzzy = true): [number, number][] {
  const n = e.words.length;
  const spans: [number, number][] = [];
  if (n === 0) return spans;
  for (let i = 0; i + n <= tokens.length; i++) {
    let all = true;
    for (let k = 0; k < n && all; k++) all = wordMatches(tokens[i + k] as string, e.words[k] as string, { fuzzy: fuzzy && n === 1 });
    if (all) spans.push([i, i + n]);
  }
  if (n > 1) {
    for (const [i, t] of tokens.entries()) if (wordMatches(t, e.joined, { fuzzy: false })) spans.push([i, i + 1]);
  }
  return spans;
}

/** The tokens of `tokens` covered by some phrase of `lex`. */
export function covered(tokens: string[], lex: Lexicon): boolean[] {
  const out = tokens.map(() => false);
  for (const x of lex.entries) for (const [a, b] of phraseSpans(tokens, x.entry, x.fuzzy)) out.fill(true, a, b);
  return out;
}

/** A compiled lexicon: its entries, and which of them are exact-only. */
export interface Lexicon {
  entries: { entry: Entry; fuzzy: boolean; source: string }[];
}

/** Compiles phrases; a phrase starting with `=` is matched exactly (no typo slips), e.g. `=add`. */
export function lexicon(phrases: readonly string[]): Lexicon {
  const entries = phrases.map((p) => {
    const exact = p.startsWith('=');
    const source = exact ? p.slice(1) : p;
    return { entry: entry(source), fuzzy: !exact, source };
  });
  for (const e of entries) for (const w of e.entry.words) KNOWN.add(w);
  return { entries };
}

/** The phrases of `lex` that occur in `tokens`. */
export const matches = (tokens: string[], lex: Lexicon): string[] =>
  lex.entries.filter((x) => phraseAt(tokens, x.entry, x.fuzzy)).map((x) => x.source);
