/**
 * The ways a practice question's final answer can be written (issue 16 §4: "without ever stating the final answer
 * of a practice question"), as patterns over the canonical text (`canon.ts`: ASCII digits, Persian letter forms,
 * thousands separators removed). `answerGuard.ts` masks every match in the tutor's stream.
 *
 * - A number answer (`47305`, `2.4`, `0.36`): the number in any digits (`۴۷٬۳۰۵`, `٤٧٣٠٥`, `47,305`, `2.40`,
 *   `۲٫۴`), also as a part of a fraction or an expression (`3/12` when the answer is 12); and in words, Persian and
 *   English (`n2words`: `چهل و هفت هزار و سیصد و پنج`, `forty-seven thousand three hundred five`), except the words
 *   for 0 and 1 and Persian `نه` (also "no").
 * - A choice answer (`c`): the correct choice's text (`۳/۴`, `راست`); when that text is a number (with a unit),
 *   the number as above (a fraction also in words: `سه چهارم`, `three fourths`); and a reference to the choice:
 *   `گزینه ج`, `گزینهٔ c`, `option c`, `answer (c)`, `c)`, `the third choice`, `گزینه سوم`, `گزینه ۳`.
 * A number that is itself a token of the question text (`7/9` in "the denominator of 7/9", the answer being 9)
 * may be repeated: {@link protectedTokens}. Masking prefers a cut too many over a leak.
 */
import { toCardinal as enCardinal, toOrdinal as enOrdinal } from 'n2words/en-US';
import { toCardinal as faCardinal, toOrdinal as faOrdinal } from 'n2words/fa-IR';
import { canon } from './canon';

/** A practice question's answer key, as the curriculum holds it. */
export interface AnswerKey {
  type: 'choice' | 'number';
  /** The choice id, or the number as a string (ASCII digits, `.` decimal point). */
  answer: string;
  choices?: { id: string; text: string }[];
  /** The question's text (numbers in it may be repeated, see the module doc). */
  questionText: string;
}

export interface AnswerForms {
  patterns: RegExp[];
  /** Numeric tokens of the question text that may be repeated. */
  protectedTokens: Set<string>;
  /** Longest text a pattern can match (characters), for how much a stream must hold back. */
  maxLength: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Letters around a word form: none (`\p{L}`), so `چهار` is not masked inside `چهارم`. */
const wordBounded = (body: string) => `(?<!\\p{L})(?:${body})(?!\\p{L})`;
/** Digits around a number: none, and no decimal part (`12` is not in `120` nor in `3.12`). */
const numberBounded = (body: string) => `(?<![\\d.])(?:${body})(?![\\d]|\\.\\d)`;

/** A pattern's source and the longest text it can match (characters). */
interface Form {
  source: string;
  reach: number;
}

/** Words of a number as a pattern: spaces, hyphens, `and` / `و` between the words are optional. */
function wordsPattern(words: string): Form {
  const parts = canon(words)
    .text.split(/[\s-]+/)
    .filter((w) => w && w !== 'و' && w !== 'and');
  return { source: wordBounded(parts.map(escapeRegExp).join('[\\s-]*(?:(?:و|and)[\\s-]*)?')), reach: words.length + 6 * parts.length };
}

/** Digit patterns of the number `value` (`12`, `2.4`, `0.36`, `3/4`). */
function digitPatterns(value: string): Form[] {
  const reach = 2 * value.length + 8;
  const fraction = /^(\d+)\/(\d+)$/.exec(value);
  if (fraction) return [{ source: numberBounded(`${fraction[1]}\\s*\\/\\s*${fraction[2]}`), reach }];
  const m = /^-?(\d+)(?:\.(\d*?)0*)?$/.exec(value);
  if (!m) return [];
  const [, int, frac] = m;
  const intPart = String(Number(int));
  if (!frac) return [{ source: numberBounded(`0*${intPart}(?:\\.0+)?`), reach }];
  const body = `${intPart === '0' ? '0*' : `0*${intPart}`}\\.${frac}0*`;
  return [{ source: numberBounded(body), reach }, ...(intPart === '0' ? [{ source: numberBounded(`\\.${frac}0*`), reach }] : [])];
}

const AMBIGUOUS_WORDS = new Set(['نه']);

/** Word patterns of the number `value` in Persian and English (see the module doc). */
function wordPatterns(value: string): Form[] {
  const fraction = /^(\d+)\/(\d+)$/.exec(value);
  if (fraction) {
    const [p, q] = [Number(fraction[1]), Number(fraction[2])];
    if (q < 2 || q > 100) return [];
    const forms = [`${faCardinal(p)} ${faOrdinal(q)}`, `${enCardinal(p)} ${enOrdinal(q)}${p > 1 ? 's' : ''}`];
    if (q === 4) forms.push(`${enCardinal(p)} quarter${p > 1 ? 's' : ''}`);
    if (q === 2 && p === 1) forms.push('one half', 'a half', 'یک دوم');
    return forms.map(wordsPattern);
  }
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || Math.abs(n) > 1e12 || n === 0 || n === 1) return [];
  return [faCardinal(value), enCardinal(value)].filter((w) => !AMBIGUOUS_WORDS.has(w)).map(wordsPattern);
}

const numberForms = (value: string) => [...digitPatterns(value), ...wordPatterns(value)];

/** The choice letters children see in Persian books (الف، ب، ج، د), by position. */
const FA_LETTERS = ['الف', 'ب', 'ج', 'د', 'ه', 'و'];

function choiceReferences(id: string, index: number): Form[] {
  const names = [id, FA_LETTERS[index], String(index + 1), enOrdinal(index + 1), faOrdinal(index + 1)].filter((n): n is string =>
    Boolean(n),
  );
  const name = `(?:${names.map((n) => escapeRegExp(canon(n).text)).join('|')})`;
  const cue = '(?:گزینه|گزینهٔ|گزینه ی|option|choice|answer|جواب|پاسخ)';
  return [
    wordBounded(`${cue}\\s*(?:is\\s*|هست\\s*|:\\s*)?[«"'(\\[]?\\s*${name}`),
    wordBounded(`(?:the\\s+)?${escapeRegExp(canon(enOrdinal(index + 1)).text)}\\s+(?:choice|option|one)`),
    `(?<![\\p{L}\\d])\\(?\\s*${escapeRegExp(id)}\\s*\\)`,
  ].map((source) => ({ source, reach: 40 }));
}

/** The numeric tokens of `text` (canonical), e.g. `7/9`, `10.5`, `36415`. */
export const numericTokens = (text: string): string[] => [...canon(text).text.matchAll(/\d+(?:[./]\d+)*/g)].map((m) => m[0]);

/** The number a choice text states, if it is one (`۳/۴`, `۶۰ سانتی‌متر مربع`, `۰٫۰۹`): its canonical digits. */
function choiceNumber(text: string): string | undefined {
  return /^\s*(\d+(?:[./]\d+)?)\s*(?:\p{L}[\p{L}\s]*)?$/u.exec(canon(text).text)?.[1];
}

/** The forms of the answer of `key` (see the module doc). */
export function answerForms(key: AnswerKey): AnswerForms {
  const sources: Form[] = [];
  let answerToken: string | undefined;
  if (key.type === 'number') {
    answerToken = canon(key.answer).text.trim();
    sources.push(...numberForms(answerToken));
  } else {
    const index = key.choices?.findIndex((c) => c.id === key.answer) ?? -1;
    const choice = index >= 0 ? key.choices?.[index] : undefined;
    if (choice) {
      const text = canon(choice.text)
        .text.trim()
        .replace(/[«»"'،,]/g, ' ')
        .trim();
      if (text)
        sources.push({ source: wordBounded(text.split(/\s+/).map(escapeRegExp).join('[\\s«»"\'،,]*')), reach: 2 * text.length + 8 });
      answerToken = choiceNumber(choice.text);
      if (answerToken) sources.push(...numberForms(answerToken));
      sources.push(...choiceReferences(choice.id, index));
    }
  }
  const protectedTokens = new Set(numericTokens(key.questionText).filter((t) => t !== answerToken));
  const maxLength = Math.max(24, ...sources.map((s) => s.reach));
  return { patterns: sources.map((s) => new RegExp(s.source, 'gu')), protectedTokens, maxLength: Math.min(maxLength, 240) };
}
