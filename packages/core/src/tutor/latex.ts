/**
 * LaTeX → plain text, one construct at a time (issue 5 §1), for the streaming transformer of `plainText.ts`:
 * the delimiters `\(`, `\)`, `\[`, `\]` vanish; `\frac{a}{b}` (and `\dfrac`, `\tfrac`, `\cfrac`) becomes `a/b`,
 * with parentheses around a part that is not a single number or word (`\frac{x+1}{2}` → `(x+1)/2`);
 * `\sqrt{x}` → `√x`; `\text{…}`, `\mathrm{…}` and similar keep their text; symbols become their characters
 * (`\times` ×, `\div` ÷, `\cdot` ·, `\le` ≤, `\pi` π, …); spacing commands become a space; `\left` / `\right`
 * vanish; any other `\name` loses its backslash; `\\` is a line break.
 */

/** `undefined` = the construct is not complete within the text (more input is needed). */
export type Parsed = { out: string; end: number } | undefined;

/** Converts the text inside a brace group: the whole Markdown/LaTeX converter. */
export type Inner = (text: string) => string;

/** Longest brace group recognized after a LaTeX command. */
const GROUP_MAX = 120;

const SYMBOLS: Record<string, string> = {
  times: '×',
  cdot: '·',
  div: '÷',
  pm: '±',
  mp: '∓',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  ne: '≠',
  neq: '≠',
  approx: '≈',
  equiv: '≡',
  infty: '∞',
  pi: 'π',
  theta: 'θ',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  circ: '°',
  degree: '°',
  angle: '∠',
  triangle: '△',
  perp: '⊥',
  parallel: '∥',
  cdots: '…',
  ldots: '…',
  dots: '…',
  to: '→',
  rightarrow: '→',
  Rightarrow: '⇒',
  leftarrow: '←',
  quad: ' ',
  qquad: ' ',
  left: '',
  right: '',
  big: '',
  Big: '',
  bigl: '',
  bigr: '',
  displaystyle: '',
};
const FRACTIONS = new Set(['frac', 'dfrac', 'tfrac', 'cfrac']);
const TEXT_COMMANDS = new Set(['text', 'textbf', 'textit', 'textrm', 'mathrm', 'mathbf', 'mathit', 'operatorname', 'mbox', 'emph']);

const isLetter = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
const simple = (s: string) => /^[\p{L}\p{N}.٫]+$/u.test(s);
const wrap = (s: string) => (simple(s) ? s : `(${s})`);

/** A LaTeX argument at `start` (spaces before it skipped): `{...}` (nested) or one non-space character. */
function parseGroup(text: string, start: number, final: boolean, inner: Inner): Parsed | null {
  let j = start;
  while (text[j] === ' ') j++;
  if (j >= text.length) return final ? { out: '', end: j } : undefined;
  if (text[j] === '\n') return null;
  if (text[j] !== '{') return { out: inner(text[j] as string), end: j + 1 };
  let depth = 0;
  for (let k = j; k < text.length && k - j <= GROUP_MAX; k++) {
    if (text[k] === '{') depth++;
    else if (text[k] === '}') {
      depth--;
      if (depth === 0) return { out: inner(text.slice(j + 1, k)), end: k + 1 };
    }
  }
  if (text.length - j <= GROUP_MAX && !final) return undefined;
  return null;
}

/**
 * A backslash construct at `i` (text[i] === '\\'): a LaTeX delimiter, command or escape. `inner` converts the
 * text of a brace group (which may hold Markdown and LaTeX itself).
 */
export function parseBackslash(text: string, i: number, final: boolean, inner: Inner): Parsed {
  const next = text[i + 1];
  if (next === undefined) return final ? { out: '', end: i + 1 } : undefined;
  if ('()[]'.includes(next)) return { out: '', end: i + 2 };
  if (next === '\\') return { out: '\n', end: i + 2 };
  if (',;:! '.includes(next)) return { out: ' ', end: i + 2 };
  if ('%$&#_'.includes(next)) return { out: next, end: i + 2 };
  if ('{}'.includes(next)) return { out: '', end: i + 2 };
  if (!isLetter(next)) return { out: '', end: i + 1 };
  let j = i + 1;
  while (j < text.length && isLetter(text[j])) j++;
  if (j >= text.length && !final) return undefined; // the name may continue
  const name = text.slice(i + 1, j);
  if (FRACTIONS.has(name)) {
    const a = parseGroup(text, j, final, inner);
    if (a === undefined) return undefined;
    if (a === null) return { out: name, end: j };
    const b = parseGroup(text, a.end, final, inner);
    if (b === undefined) return undefined;
    if (b === null) return { out: a.out, end: a.end };
    return { out: `${wrap(a.out)}/${wrap(b.out)}`, end: b.end };
  }
  if (name === 'sqrt') {
    let k = j;
    if (text[k] === '[') {
      const close = text.indexOf(']', k);
      if (close < 0) return final ? { out: '√', end: text.length } : undefined;
      k = close + 1;
    }
    const a = parseGroup(text, k, final, inner);
    if (a === undefined) return undefined;
    if (a === null) return { out: '√', end: k };
    return { out: `√${wrap(a.out)}`, end: a.end };
  }
  if (TEXT_COMMANDS.has(name)) {
    const a = parseGroup(text, j, final, inner);
    if (a === undefined) return undefined;
    if (a === null) return { out: '', end: j };
    return { out: a.out, end: a.end };
  }
  return { out: Object.hasOwn(SYMBOLS, name) ? (SYMBOLS[name] as string) : name, end: j };
}
