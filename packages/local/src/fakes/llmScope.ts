/**
 * The local fake model's reading of the tutor prompt's scope rule (issue 16 §2, issue 26 §1): whether a message is
 * about math, judged the way a model reading the rule would, with word lists of its own (`llmScopeWords.ts`) — not
 * the service's gate (`packages/core/src/tutor/gate/`), so that stage 2 is a second opinion and its refusal path runs
 * end to end.
 *
 * Like stage 1 since issue 26, it refuses only on positive evidence that a message is not math, and only when the
 * message shows no math of its own; everything else is answered (a refusal here is a refusal the child sees). In
 * this order:
 * 1. a rule change, a role play or a request for the prompt → not math, whatever else it holds (the prompt's rule
 *    names them);
 * 2. something to compute → math: an expression (years are not operands), two quantities (digits or number words:
 *    `a dozen`, `سه`, `منفی ۴`) with a question or relation word, three quantities or more (a sequence, a list to
 *    order), a quantity with a unit of measure, time, the calendar or money and a question about a quantity;
 * 3. a question to the tutor about itself (`your favourite number`, `what time is it`) and language homework
 *    (spelling, synonyms, `جمع کلمه`) → not math;
 * 4. a math term (operations, fractions, decimals, place value, shapes, patterns, counting by, negative numbers, the
 *    words of written methods), or a quantity asked about (`how many edges…`, `یه جین چند تاست`) → math;
 * 5. in a conversation (an earlier answer, or a practice question in the prompt), a follow-up ("why?", "where is my
 *    mistake?") → math;
 * 6. a creative request, another school subject or a fact about the world (people, places, animals, nature, history,
 *    `how many planets…`) → not math;
 *    A creative request that names math ("a math game", "یه معمای ریاضی") is math; other topics (sports, games and
 *    apps, films) are not math either;
 * 7. chit-chat (greetings, thanks, feelings, the child's day, family, pets, food, remarks about the tutor) → not
 *    math, unless it holds a quantity (`my mom gave me 20000 toman`) or asks about a measure (`how long…`, `چقدر…`);
 * 8. a message with no words (emoji, keyboard mashing) → not math; anything else → math: it carries no evidence
 *    against math (`what's half of a dozen`, `why does this method work`, a phrasing nobody listed).
 */
import {
  ABOUT_THE_TUTOR,
  CHITCHAT,
  CREATIVE,
  EXPLICIT_MATH,
  LANGUAGE,
  MATH_TERMS,
  NUMBER_WORDS,
  OTHER_TOPIC,
  QUANTITY_QUESTION,
  RELATION,
  RULE_CHANGE,
  SUBJECT,
  UNITS,
  WEEKDAYS,
} from './llmScopeWords';

/** A chat message as the API receives it. */
export interface ChatTurn {
  role: string;
  content: string;
}

/** Lower case, ASCII digits (Persian, Arabic-Indic), Arabic letter forms → Persian, ZWNJ → space. */
export function normalize(s: string): string {
  return s
    .replace(/[۰-۹]/g, (c) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(c)))
    .replace(/[٠-٩]/g, (c) => String('٠١٢٣٤٥٦٧٨٩'.indexOf(c)))
    .replace(/٫/g, '.')
    .replace(/(\d)[٬,](?=\d{3}(?!\d))/g, '$1')
    .toLowerCase()
    .replace(/[يى]/g, 'ی')
    .replace(/ك/g, 'ک')
    .replace(/[\u200c\u200d]/g, ' ')
    .replace(/[\u064B-\u065F\u0670]/g, '')
    .replace(/(\p{L})\1{2,}/gu, '$1'); // letters stretched for emphasis: `hiiii`, `سلاااام`
}

/** Whether `q` matches any of the patterns. */
const any = (q: string, ...res: RegExp[]) => res.some((re) => re.test(q));

const FOLLOW_UP =
  /^(why|how|what do you mean|i don'?t (understand|get it)|explain|again|next|hint|ok|thanks?|wait|i got|are you sure|is that right)|^(چرا|چطور|یعنی چی|نفهمیدم|متوجه نشدم|دوباره|توضیح|راهنمایی|مرسی|ممنون|باشه|اشتباه|کجاش|حالا چی|من .{0,10}گرفتم)/;

/**
 * The text without years (13xx, 14xx, 19xx, 20xx not followed by a unit: `2000 toman` is money): for a request about
 * a subject or a topic, where years are facts (`who won the world cup in 2014`), not numbers to compute with.
 */
const withoutYears = (q: string) =>
  q.replace(/(?<![\d.])(1[34]|19|20)\d\d(?![\d.])(?!\s*(تومن|تومان|ریال|toman|rials?|dollars?|متر|m\b|km|کیلو|گرم|g\b))/g, ' ');

/** The quantities of `q`: digit runs (a decimal is one) and number words (`dozen`, `twenty`, `سه`, `نصف`). */
function quantities(q: string): string[] {
  const digits = q.match(/\d+(?:\.\d+)?/g) ?? [];
  const words = NUMBER_WORDS.flatMap((re) => q.replace(WEEKDAYS, ' ').match(re) ?? []);
  return [...digits, ...words];
}

/** Step 2 of the module doc: something to compute in `q` (normalized, years out). */
function computable(q: string): boolean {
  const n = quantities(q).length;
  const asked = any(q, ...QUANTITY_QUESTION);
  return (
    /\d\s*[-+×x*÷/:=^−]\s*-?\d/.test(q) ||
    /[?؟□☐_]\s*[-+×x*÷=]\s*\d|\d\s*[-+×x*÷=]\s*[?؟□☐_]/.test(q) ||
    (n >= 2 && (asked || any(q, ...RELATION))) ||
    n >= 3 ||
    (n >= 1 && asked && any(q, ...UNITS))
  );
}

/**
 * A message with no words: emoji or punctuation only, or one run of keys side by side on a keyboard row
 * (`asdfghjkl`, `سیبسیبسی`).
 */
function noWords(q: string): boolean {
  if (!/[\p{L}\d]/u.test(q)) return true;
  const word = q.trim();
  if (word.length < 6 || /[\s\d]/.test(word)) return false;
  const rows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'ضصثقفغعهخحجچ', 'شسیبلاتنمکگ', 'ظطزرذدپو'];
  const near = (a: string, b: string) => rows.some((r) => r.includes(a) && r.includes(b) && Math.abs(r.indexOf(a) - r.indexOf(b)) === 1);
  let pairs = 0;
  for (let i = 1; i < word.length; i++) if (near(word[i - 1] as string, word[i] as string)) pairs++;
  return pairs >= (word.length - 1) / 2;
}

/** Whether the fake considers `question` not about math, given the system prompt and the earlier turns. */
export function isOffTopic(question: string, system: string, earlier: ChatTurn[]): boolean {
  const raw = normalize(question);
  if (any(raw, ...RULE_CHANGE)) return true;
  const q = any(raw, ...LANGUAGE, ...CREATIVE, ...SUBJECT, ...OTHER_TOPIC) ? withoutYears(raw) : raw;
  if (computable(q)) return false;
  if (any(q, ...ABOUT_THE_TUTOR, ...LANGUAGE)) return true;
  const count = quantities(q).length;
  if (any(q, ...MATH_TERMS) || (count >= 1 && any(q, ...QUANTITY_QUESTION))) return false;
  const inConversation = earlier.some((m) => m.role === 'assistant') || system.includes('Practice question:');
  if (inConversation && FOLLOW_UP.test(q.trim())) return false;
  // A creative request that names math is a math game or a math puzzle.
  if (any(q, ...CREATIVE) && !any(q, ...SUBJECT, ...OTHER_TOPIC)) return !any(q, ...EXPLICIT_MATH);
  if (any(q, ...SUBJECT, ...OTHER_TOPIC)) return true;
  if (any(q, ...CHITCHAT)) return count === 0 && !(any(q, ...UNITS) && any(q, ...QUANTITY_QUESTION));
  return noWords(q);
}
