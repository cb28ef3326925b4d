/**
 * The safety screen of the tutor's gate (issue 16 §3; spec Errors "Self-harm content to the assistant: a help-line
 * message instead of an answer"), run before the topic decision, in Persian and English:
 *
 * - `self_harm`: phrases of wanting to die or hurt oneself (English on word boundaries; Persian compared with
 *   spaces and ZWNJ removed, so `می‌خوام بمیرم` = `میخوام بمیرم`). Wins over everything: the help-line message.
 * - `abuse`: a child telling that someone hits, hurts, touches, threatens or bullies them, or that they do not feel
 *   safe at home. The abuse help message (social emergency line 123).
 * - personal data, found with its span: an Iranian mobile or landline number, an e-mail address, a national id
 *   (10 digits passing the national-code check digit, or any 10 digits named as one), a postal code, a street
 *   address (address words such as خیابان/کوچه/پلاک, `my address is…`, `12 Baker Street`). Redacted from the
 *   request before anything else sees it (`redact`): it never reaches the model and is never stored.
 *
 * Phrase detection catches common direct phrasings, not every paraphrase; it may fire on a quoted sentence (the
 * safe message is the better error). Only the category is logged, never the text.
 */
import { canon, replaceSpans } from '../canon';
import { fold, squash } from '../text';

export type PersonalKind = 'phone' | 'email' | 'national_id' | 'postal_code' | 'address';

const SELF_HARM_EN: RegExp[] = [
  /\bsuicid(e|al)\b/,
  /\b(kill|killing|hurt|hurting|cut|cutting|harm|harming|end)\s+my\s?self\b/,
  /\bself[\s-]?harm/,
  /\bend(ing)?\s+(my\s+(own\s+)?life|it\s+all)\b/,
  /\btake\s+my\s+(own\s+)?life\b/,
  /\b(want|wanted|wanna|going|gonna)\s+(to\s+)?die\b/,
  /\bwish\s+i\s+(was|were|had\s+been)\s+(dead|never\s+born)\b/,
  /\b(don['’]?t|do\s+not|dont)\s+want\s+to\s+(live|be\s+alive|exist)\b/,
  /\bno\s+reason\s+to\s+live\b/,
  /\bbetter\s+off\s+dead\b/,
  /\bunalive\b/,
];

const SELF_HARM_FA: string[] = [
  'خودکشی',
  'خودزنی',
  'خودموبکشم',
  'خودمروبکشم',
  'خودمرابکشم',
  'خودمبکشم',
  'میخوامبمیرم',
  'میخواهمبمیرم',
  'دوستدارمبمیرم',
  'کاشبمیرم',
  'کاشمردهبودم',
  'کاشبدنیانیومدهبودم',
  'بهخودمآسیب',
  'رگموبزنم',
  'رگمرابزنم',
  'رگمروبزنم',
  'نمیخوامزندهباشم',
  'نمیخواهمزندهباشم',
  'نمیخوامزندگیکنم',
  'خودموازبینببرم',
  'خودمراازبینببرم',
  'بهترهبمیرم',
  'بهترهکهبمیرم',
  'قرصبخورمبمیرم',
  'ازپشتبامبپرم',
].map(squash);

const ABUSE_EN: RegExp[] = [
  /\b(he|she|they|someone|somebody|my\s+\w+|a\s+\w+|the\s+\w+)\s+(always\s+|often\s+|keeps?\s+)?(hits?|hitting|beats?|beating|kicks?|slaps?|punch(es)?|burns?|hurts?|abuses?|abused|touch(es|ed)?|threatens?|threatened|locks?|locked)\s+me\b/,
  /\b(i\s+am|i'm|im|i\s+get|i\s+got|i\s+was|i\s+keep\s+getting)\s+(being\s+)?(beaten|hit|abused|bullied|hurt|touched|threatened)\b/,
  /\b(abuse|abusing|molest\w*|bully(ing)?\s+me|bullies\s+me)\b/,
  /\b(not|don['’]?t|dont)\s+feel\s+safe\b/,
  /\b(scared|afraid)\s+to\s+go\s+home\b/,
];

const ABUSE_FA: string[] = [
  'منومیزنه',
  'منومیزنن',
  'منوکتکمیزنه',
  'منوکتکمیزنن',
  'کتکممیزنه',
  'کتکممیزنن',
  'کتکمیزنه',
  'کتکمزد',
  'کتکمزدن',
  'کتکمیخورم',
  'منرامیزند',
  'مرامیزند',
  'مراکتکمیزند',
  'مراکتکمیزنند',
  'بهمدستمیزنه',
  'بهمندستمیزنه',
  'بهمندستمیزند',
  'دستدرازی',
  'آزارجنسی',
  'آزارمیده',
  'آزارممیده',
  'آزارمیدهد',
  'اذیتممیکنه',
  'اذیتممیکنن',
  'منواذیتمیکنه',
  'مرااذیتمیکند',
  'تهدیدممیکنه',
  'منوتهدیدمیکنه',
  'منوزندونیمیکنه',
  'توخونهامنیتندارم',
  'درخانهامنیتندارم',
  'میترسمبرمخونه',
  'میترسمبهخانهبروم',
  'قلدریمیکنه',
  'زورگوییمیکنه',
  'بهمتجاوز',
  'بهمنتجاوز',
].map(squash);

/** Iranian national code check digit (digits 1-9 weighted 10..2, mod 11). */
function isNationalCode(d: string): boolean {
  if (!/^\d{10}$/.test(d) || /^(\d)\1{9}$/.test(d)) return false;
  const sum = [...d.slice(0, 9)].reduce((s, c, i) => s + Number(c) * (10 - i), 0);
  const r = sum % 11;
  const check = Number(d[9]);
  return r < 2 ? check === r : check === 11 - r;
}

const PERSONAL: { kind: PersonalKind; re: RegExp; check?: (m: string) => boolean }[] = [
  { kind: 'email', re: /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/dg },
  { kind: 'phone', re: /(?<!\d)(?:\+|00)?98[\s-]?9\d{2}[\s-]?\d{3}[\s-]?\d{4}(?!\d)/dg },
  { kind: 'phone', re: /(?<![\d.])09\d{2}[\s-]?\d{3}[\s-]?\d{4}(?!\d)/dg },
  { kind: 'phone', re: /(?<![\d.])0\d{2}[\s-]?\d{8}(?!\d)/dg },
  {
    kind: 'phone',
    re: /(?:phone|mobile|cell|call me|text me|whatsapp|شماره ?(?:تلفن|موبایل|تماس|همراه|م|ام|مو|من|منو|خونه|خانه)|شمارم|تلفن|موبایل|زنگ بزن)[^\d]{0,15}(?<data>\+?\d[\d\s-]{5,}\d)/dg,
  },
  { kind: 'national_id', re: /(?<![\d.])\d{10}(?![\d.])/dg, check: (m) => isNationalCode(m) },
  { kind: 'national_id', re: /(?<!\d)\d{3}-\d{6}-\d(?!\d)/dg },
  { kind: 'national_id', re: /(?:کد ?ملی|شماره ?ملی|کد ?ملیم|national ?(?:id|code|number))[^\d]{0,12}(?<data>\d[\d\s-]{7,}\d)/dg },
  { kind: 'postal_code', re: /(?:کد ?پستی|کدپستیم|postal ?code|post ?code|zip ?code|zip)[^\d]{0,12}(?<data>\d[\d\s-]{4,}\d)/dg },
];

/**
 * A quantity (a number with a unit or a counted noun: `120 متر`, `8 خانه`, `300 meters`, `3 houses`) or a
 * measuring word: a word problem about streets and alleys, not an address (an address names its street and gives a
 * number plate, never a length).
 */
const MEASURE =
  /\d+(?:[.,]\d+)?\s*(?:متر|کیلومتر|سانتی|میلی|قدم|دقیقه|ساعت|ثانیه|خانه|درخت|ماشین|نفر|تا\b|عدد|meters?|metres?|m\b|km\b|cm\b|kilomet(?:er|re)s?|miles?|feet|foot|steps?|minutes?|hours?|houses?|trees?|cars?|people|children|kids)|طول|عرض|مساحت|محیط|فاصله|اختلاف|\b(?:long|wide|length|width|distance)\b/;

/** Words of a sentence about a street, never inside an address such as `12 Baker Street`. */
const NOT_A_STREET_NAME =
  /\b(?:the|a|an|on|in|at|of|along|across|down|up|to|from|and|or|is|are|was|were|has|have|with|each|every|per|more|less)\b/;

/**
 * Address cues: the address is redacted to the end of its sentence, from the cue's `data` group when it has one
 * (`my address is …`, `آدرسم …`), else from the cue itself (`خیابان … پلاک`, `12 Baker Street`). A street-word cue
 * is not an address when what it matched measures something (`خیابان ۱۲۰ متر و کوچه ۴۵ متر`, `a 120 meter long
 * road`) or reads as a sentence (`3 houses on the street`), and the Persian one stays inside one sentence: these are
 * the word problems of a math book.
 */
const ADDRESS: { re: RegExp; check?: (m: string) => boolean }[] = [
  {
    re: /(?:آدرس|نشانی|ادرس) ?(?:م|ام|من|ما|مون|خونه|خانه|خونمون|خانه ما|مدرسه ام|مدرسم)(?: ?(?:اینه|این است|هست|است|:))?\s*(?<data>\S)/dg,
  },
  {
    re: /(?:خیابان|خیابون|بلوار|میدان|میدون|کوچه|بن ?بست)\s+[^\s.!?؟]+[^.!?؟\n]{0,40}?(?:کوچه|پلاک|طبقه|واحد|بن ?بست|نبش)/dg,
    check: (m) => !MEASURE.test(m),
  },
  { re: /پلاک\s*\d+/dg },
  { re: /\b(?:my|our) (?:home )?address(?: is|:)?\s*(?<data>\S)/dg },
  { re: /\bi live (?:at|on) (?<data>\d|the corner)/dg },
  {
    re: /\b\d+[a-z]?\s+(?:\w+\s+){1,3}(?:street|st|avenue|ave|road|rd|lane|ln|boulevard|blvd|alley)\b/dg,
    check: (m) => !MEASURE.test(m) && !NOT_A_STREET_NAME.test(m),
  },
  { re: /\b(?:apartment|apt|flat|unit|floor) \d+/dg },
];

const SENTENCE_END = /[.!?؟\n]/;

/** Personal data found in `text`: its kinds and canonical spans (see the module doc). */
function personalSpans(text: string): { kinds: PersonalKind[]; spans: [number, number][]; c: ReturnType<typeof canon> } {
  const c = canon(text);
  const kinds = new Set<PersonalKind>();
  const spans: [number, number][] = [];
  for (const p of PERSONAL) {
    for (const m of c.text.matchAll(p.re)) {
      if (p.check && !p.check(m[0])) continue;
      kinds.add(p.kind);
      spans.push(m.indices?.groups?.data ?? [m.index, m.index + m[0].length]);
    }
  }
  for (const { re, check } of ADDRESS) {
    for (const m of c.text.matchAll(re)) {
      if (check && !check(m[0])) continue;
      const start = m.indices?.groups?.data?.[0] ?? m.index;
      const rest = c.text.slice(start);
      const end = rest.search(SENTENCE_END);
      kinds.add('address');
      spans.push([start, start + (end < 0 ? rest.length : Math.max(end, m.index + m[0].length - start))]);
    }
  }
  return { kinds: [...kinds], spans, c };
}

export interface SafetyScreen {
  /** A message category that replaces any answer. */
  category?: 'self_harm' | 'abuse';
  /** Kinds of personal data found (empty: none). */
  personal: PersonalKind[];
  /** The text with every piece of personal data replaced by `placeholder`. */
  redacted: string;
}

/**
 * Screens a learner's request (see the module doc). `placeholder` replaces each piece of personal data.
 * Pure; never throws.
 */
export function screenSafety(text: string, placeholder: string): SafetyScreen {
  const folded = fold(text);
  const squashed = folded.replace(/ /g, '');
  const found = personalSpans(text);
  const redacted = found.spans.length ? replaceSpans(text, found.c, found.spans, () => placeholder) : text;
  const base = { personal: found.kinds, redacted };
  if (SELF_HARM_EN.some((re) => re.test(folded)) || SELF_HARM_FA.some((p) => squashed.includes(p)))
    return { ...base, category: 'self_harm' };
  if (ABUSE_EN.some((re) => re.test(folded)) || ABUSE_FA.some((p) => squashed.includes(p))) return { ...base, category: 'abuse' };
  return base;
}
