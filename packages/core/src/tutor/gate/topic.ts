/**
 * Stage 1 of the tutor's topic gate (issue 16 §1; spec Errors "Off-topic question to the assistant: fixed refusal
 * text (server-side pre-filter and a scope rule in the prompt)"): a cheap local decision, math or not, before
 * any slot, quota or model call. Stage 2 is the model's own refusal marker (`prompt.ts`, `answerStream.ts`).
 *
 * It is math-positive: a request goes to the model only with evidence that it is about math. Evidence, from the
 * words of `lexicon.json` matched by `words.ts` (suffixes, typos, sound-alike letters, any digits):
 * - structure: an arithmetic expression (`3/4 + 1/8`, `۱۲ × ۳`, `5 plus 7`, `☐ + 5 = 12`), a word problem (two
 *   numbers or more with a quantity cue: how many, each, left, چند تا, روی هم, هر …), or a number asked about
 *   (`what is 1/2`, `۴۵ چند میشه`);
 * - vocabulary: a math term (fraction, perimeter, کسر, مساحت, ک.م.م …);
 * - a tutoring follow-up made only of follow-up words (`why?`, `I don't get it`, `نفهمیدم دوباره بگو`);
 * - in a lesson or practice-question conversation, no evidence is needed: what is not refused below is taken as
 *   talk about the lesson or the question ("I do not understand this one"), and left to stage 2.
 * And against it:
 * - an attempt to change the rules (`ignore your rules`, `from now on you are…`, `قوانینت رو فراموش کن`)
 *   is refused whatever else the message holds;
 * - a creative request (story, poem, song, joke, game) is refused unless it names math itself ("a math game");
 * - chit-chat, other school subjects and other topics (sports, films, apps, food…) are refused unless there is
 *   structure; chit-chat or a topic next to a math term goes to the model (`area of a football field`).
 * Anything without evidence is refused. The decision carries a reason, logged (never the text).
 */

import { fold } from '../text';
import lexiconData from './lexicon.json';
import { covered, type Lexicon, lexicon, matches, tokenize } from './words';

export type TopicContext = 'book' | 'lesson' | 'question';

export type TopicReason =
  | 'rule_change'
  | 'creative'
  | 'chitchat'
  | 'subject'
  | 'topic'
  | 'no_math_signal'
  | 'structure'
  | 'vocabulary'
  | 'follow_up'
  | 'context';

export interface TopicDecision {
  topic: 'math' | 'off_topic';
  reason: TopicReason;
}

/** The words that name math itself. */
const EXPLICIT_WORDS = new Set(lexiconData.explicitMath.map((w) => w.replace(/^=/, '')));

/** A lexicon of function words: no typo slips (`whats` is not `what`). */
const exact = (words: readonly string[]) => lexicon(words.map((w) => (w.startsWith('=') ? w : `=${w}`)));

const L = {
  mathStrong: lexicon(lexiconData.mathStrong),
  mathWeak: lexicon(lexiconData.mathWeak),
  explicitMath: lexicon(lexiconData.explicitMath),
  quantityCues: exact(lexiconData.quantityCues),
  arithQueries: exact(lexiconData.arithQueries),
  numberWords: exact(lexiconData.numberWords),
  operations: lexicon(lexiconData.operations),
  followUps: lexicon(lexiconData.followUps),
  fillers: exact(lexiconData.fillers),
  creative: lexicon(lexiconData.creative),
  chitchat: lexicon(lexiconData.chitchat),
  subject: lexicon(lexiconData.subject),
  topic: lexicon(lexiconData.topic),
} satisfies Record<string, Lexicon>;

/** Attempts to change the tutor's rules or role, on the folded text (`text.ts` fold, then {@link tokenize} joined). */
const RULE_CHANGE: RegExp[] = [
  /\b(ignore|forget|disregard|override|bypass|break|skip|drop)\b.{0,30}\b(rules?|instructions?|prompt|directions|orders|restrictions|limits?|programming)\b/,
  /\b(you are|youre|you re|u r|you will be|be) (now|no longer|not a|not my|from now)\b/,
  /\bfrom now on\b/,
  /\b(pretend|act|behave|roleplay|role play)\b.{0,12}\b(to be|as|like|you are|youre|that you)\b/,
  /\b(new|different|your) (rules?|instructions?|role|persona|mode)\b/,
  /\b(system prompt|developer mode|dev mode|jailbreak|jail break|dan mode|do anything now|no restrictions|without restrictions|no rules|unrestricted)\b/,
  /\b(answer|talk about|help with|tell me) (anything|everything|whatever i (want|ask))\b/,
  /\bstop being (a |my )?(math|tutor|teacher)\b/,
  /\b(you can|you are allowed to|you may) (now )?(talk|answer|help|say|discuss)\b.{0,20}\b(anything|everything|other|any (topic|subject|question))\b/,
  /(قانون|قوانین|قواعد|دستور|دستورات|دستورالعمل|محدودیت)[^ ]{0,4} ?(خودت|خودتو|خودت رو|ات|هات)? ?(رو|را|و)? ?(فراموش|نادیده|بیخیال|بی خیال|ول کن|کنار|زیر پا|بشکن|عوض|تغییر|حذف)/,
  /(فراموش کن|نادیده بگیر|بیخیال شو|بی خیال شو) (که )?(تو |شما )?(معلم|ربات|قانون|قوانین|دستور|ریاضی)/,
  /از (الان|این به بعد|حالا|امروز) (به بعد )?(تو|شما|دیگه|دیگر)/,
  /(نقش|رل) .{0,30}(بازی کن|رو بازی|را بازی|باش|بگیر)/,
  /(وانمود کن|تظاهر کن|ادا در بیار)/,
  /(فرض کن|تصور کن|تصور کنیم|فرض کنیم) (که )?(تو|شما) (یه |یک )?[^\d]{0,25}(هستی|هستید|باشی|باشید|نیستی)/,
  /(تو|شما) (دیگه|دیگر|الان|حالا) .{0,25}(نیستی|هستی|نیستید|هستید)/,
  /(هر|همه) (سوالی|سوال|چیزی|چی)( [^ ]+){0,3} (جواب بده|جواب بدی|بگو|میتونی)/,
  /(لازم نیست|نباید|نمیخواد|نمیخواهد|مجبور نیستی) (فقط|دیگه|دیگر)( [^ ]+){0,3} ریاضی/,
  /\b(dont|don t|do not|no need to|not) (have to |need to )?(only|just) (do |answer |talk about |help with )?math/,
  /(بدون|هیچ) (محدودیت|قانون|قانونی)/,
  /(پرامپت|دستور سیستم|حالت توسعه)/,
  /\b(forget|stop|skip|drop|no more|enough|quit|leave) (about |with |the |doing |this |your )*(math|maths|mathematics|numbers)\b/,
  /ریاضی (رو |را |و )?(بیخیال|بی خیال|فراموش|ول کن|کنار بذار|کنار بگذار|تعطیل)|(بیخیال|بی خیال|ول کن) (ریاضی|درس|عدد)/,
];

/** Plural of a word (Persian grammar), not a sum: `جمع کلمه‌ی کتاب`, `جمع مکسر`. */
const GRAMMAR_PLURAL = /جمع (کلمه|واژه|مکسر|بستن|اسم)|(کلمه|واژه|اسم) .{1,20} (جمعش|جمع)( چی| چیه| میشه)/;

/** Numbers that name a page, an exercise or a lesson are not quantities (`تمرین ۴ صفحه ۲۵`, `page 12`). */
const REFERENCE =
  /(page|pages|exercise|ex|lesson|question|chapter|grade|class|unit|درس|صفحه|تمرین|سوال|سئوال|فصل|پایه|کلاس|شماره|بخش)\s*\.?\s*\d+/g;
/** Dates are not expressions: `1392/05/17`, `2014-03-21`. */
const DATE = /\b(1[34]\d\d|(19|20)\d\d)[-/.]\d{1,2}[-/.]\d{1,2}\b/g;
/** Two numbers around an operator (folded text: ASCII digits), a percentage, or an unknown in an equation. */
const EXPRESSION = /\d\s*[-+×x*÷/:=^−–]\s*\d|\d\s*%|[?؟□☐_]+\s*[-+×x*÷=]\s*\d|\d\s*[-+×x*÷=]\s*[?؟□☐_]/;

/** Numbers in the text: digit runs (any script), and number words other than "one"/"یک". */
function countNumbers(foldedNoDates: string, tokens: string[]): number {
  const digits = foldedNoDates.match(/\d+(?:[.,]\d+)*/g)?.length ?? 0;
  return digits + matches(tokens, L.numberWords).length;
}

/** The stage-1 topic decision for a learner's request (see the module doc). Pure and synchronous; never throws. */
export function classifyTopic(text: string, context: TopicContext = 'book'): TopicDecision {
  const tokens = tokenize(text);
  const spaced = tokens.join(' ');
  if (RULE_CHANGE.some((re) => re.test(spaced))) return { topic: 'off_topic', reason: 'rule_change' };

  const has = (lex: Lexicon) => matches(tokens, lex).length > 0;
  const offWords = has(L.subject) || has(L.topic);
  // Years next to a subject or a topic are facts, not numbers to compute with ("between 1357 and 1360").
  const noDates = withoutDates(text, offWords);
  const numbers = countNumbers(noDates, tokens);
  // "math" itself is no math content: "do you like math?", "forget math" (it counts below, after the refusals).
  const explicit = has(L.explicitMath);
  const strong = matches(tokens, L.mathStrong).filter((w) => !EXPLICIT_WORDS.has(w)).length;
  const weak = matches(tokens, L.mathWeak).length;
  const expression = EXPRESSION.test(noDates) || wordOperation(tokenize(noDates));
  const wordProblem = numbers >= 2 && has(L.quantityCues);
  const askedNumber = numbers >= 1 && has(L.arithQueries);
  const structure = expression || wordProblem || askedNumber;
  const grammar = GRAMMAR_PLURAL.test(spaced);

  if (has(L.creative) && !explicit) return { topic: 'off_topic', reason: 'creative' };
  if (grammar || (has(L.subject) && !structure && strong === 0)) return { topic: 'off_topic', reason: 'subject' };
  if (has(L.chitchat) && !structure && strong === 0) return { topic: 'off_topic', reason: 'chitchat' };
  if (offWords && !structure && strong === 0) return { topic: 'off_topic', reason: 'topic' };
  if (structure) return { topic: 'math', reason: 'structure' };
  if (strong >= 1 || explicit) return { topic: 'math', reason: 'vocabulary' };
  if (isFollowUp(tokens)) return { topic: 'math', reason: 'follow_up' };
  if (context !== 'book') return { topic: 'math', reason: 'context' };
  if (weak >= 2 && numbers >= 1) return { topic: 'math', reason: 'vocabulary' };
  return { topic: 'off_topic', reason: 'no_math_signal' };
}

/** Two numbers with only operation words between them: `5 plus 7`, `7 tims 8`, `۱۲ ضرب در ۳`, `جمع ۳ و ۴`. */
function wordOperation(tokens: string[]): boolean {
  const ops = covered(tokens, L.operations);
  const isNumber = (i: number) => /^\d/.test(tokens[i] ?? '');
  for (let i = 0; i < tokens.length; i++) {
    if (!isNumber(i)) continue;
    for (let k = i + 2; k <= i + 4 && k < tokens.length; k++) {
      if (isNumber(k) && ops.slice(i + 1, k).every(Boolean)) return true;
      if (!ops[k]) break;
    }
  }
  return false;
}

/** A short message made only of follow-up phrases and filler words ("why?", "نفهمیدم، دوباره توضیح بده"). */
function isFollowUp(tokens: string[]): boolean {
  if (tokens.length === 0 || tokens.length > 10) return false;
  const byPhrase = covered(tokens, L.followUps);
  if (!byPhrase.some(Boolean)) return false;
  const byFiller = covered(tokens, L.fillers);
  return tokens.every((_, i) => byPhrase[i] || byFiller[i]);
}

/**
 * The folded text (`text.ts`: ASCII digits, letter forms) with thousands separators joined (`۱٬۲۴۵` → `1245`), dates
 * removed and, when `dropYears`, year-like numbers (13xx, 14xx, 19xx, 20xx) too: for the expression patterns.
 */
function withoutDates(text: string, dropYears: boolean): string {
  const folded = fold(text)
    .replace(/(\d)[٬,](?=\d{3}(?!\d))/g, '$1')
    .replace(DATE, ' ')
    .replace(REFERENCE, '$1 ');
  return dropYears ? folded.replace(/(?<!\d)(1[34]|19|20)\d\d(?!\d)/g, ' ') : folded;
}
