/**
 * The tutor's server-side pre-filter (issue 5 §4; spec Errors: "Off-topic question to the assistant: fixed
 * refusal text (server-side pre-filter and a scope rule in the prompt)", "Self-harm content: a help-line
 * message instead of an answer").
 *
 * A keyword/heuristic classifier over the folded question (`text.ts`: Persian/Arabic letter forms, Persian and
 * Arabic-Indic digits, ZWNJ and diacritics folded), in Persian and English:
 *
 * 1. `self_harm` when a self-harm phrase occurs (English phrases on word boundaries; Persian phrases compared
 *    with all spaces and ZWNJs removed, so `می‌خوام بمیرم`, `می خوام بمیرم` and `میخوام بمیرم` match alike).
 *    This wins over everything else: the learner gets the help-line message, the model never sees the text.
 * 2. `off_topic` when an off-topic keyword occurs (sports, clubs and players, games, social media, films,
 *    music, politics, dating, jokes, cooking, weather) AND there is no math signal (a math word such as
 *    add/جمع/کسر/مساحت, or an arithmetic expression such as `3/4`, `2+3`, `۵ × ۶`). Answered with the fixed
 *    refusal text, no model call, no quota.
 * 3. `ask` otherwise: math questions, and everything the keywords cannot judge (greetings, borderline word
 *    problems). For those the prompt's scope rule and the late refusal marker (`answerStream.ts`) are the
 *    second line.
 *
 * Limits (by design, documented in docs/decisions.md): keywords miss paraphrases, slang, misspellings and other
 * languages, and an off-topic question that contains a math word or an expression ("how many goals did Messi
 * score in 2022 + 2023?") passes to the model. Self-harm detection is phrase-based: it catches the common
 * direct phrasings only, and it can fire on a quoted or hypothetical sentence (we prefer that error).
 */
import { fold, squash } from './text';

export type TopicVerdict = { kind: 'ask' } | { kind: 'off_topic' } | { kind: 'self_harm' };

/** English self-harm phrases, matched on the folded text. */
const SELF_HARM_EN: RegExp[] = [
  /\bsuicid(e|al)\b/,
  /\b(kill|killing|hurt|hurting|cut|cutting|harm|harming)\s+my\s?self\b/,
  /\bself[\s-]?harm/,
  /\bend(ing)?\s+my\s+(own\s+)?life\b/,
  /\btake\s+my\s+(own\s+)?life\b/,
  /\b(want|wanted|wanna|going)\s+(to\s+)?die\b/,
  /\bwish\s+i\s+(was|were)\s+dead\b/,
  /\b(don['’]?t|do\s+not)\s+want\s+to\s+(live|be\s+alive)\b/,
];

/** Persian self-harm phrases, compared squashed (no spaces, no ZWNJ). */
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
  'بهخودمآسیب',
  'رگموبزنم',
  'رگمرابزنم',
  'رگمروبزنم',
  'نمیخوامزندهباشم',
  'نمیخواهمزندهباشم',
  'نمیخوامزندگیکنم',
  'خودموازبینببرم',
  'خودمراازبینببرم',
].map(squash);

/** English off-topic keywords and phrases (word boundaries), matched on the folded text. */
const OFF_TOPIC_EN =
  /\b(football|soccer|futsal|basketball|volleyball|tennis|fifa|world cup|premier league|messi|ronaldo|neymar|real madrid|barcelona|persepolis|esteghlal|minecraft|fortnite|roblox|pubg|free fire|clash of clans|clash royale|video ?games?|games?|gaming|playstation|xbox|nintendo|youtube|youtuber|tiktok|instagram|telegram|movies?|films?|netflix|series|cartoons?|anime|songs?|music|singer|rapper|actor|actress|celebrity|politics|political|president|election|war|girlfriend|boyfriend|dating|jokes?|recipe|cooking|weather|horoscope)\b/;

/**
 * Persian off-topic keywords, matched on the folded text (ZWNJ folded to a space) at the start of a word, so
 * suffixes still match (`فوتبالی`, `فیلم‌ها`). Short ones that begin other words (`مسی` / `مسیر`, `جنگ` /
 * `جنگل`) must be the whole word: {@link OFF_TOPIC_FA_WHOLE}.
 */
const OFF_TOPIC_FA_PREFIX: string[] = [
  'فوتبال',
  'فوتسال',
  'والیبال',
  'بسکتبال',
  'پرسپولیس',
  'بارسلونا',
  'رونالدو',
  'جام جهانی',
  'ماینکرفت',
  'فورتنایت',
  'پابجی',
  'فری فایر',
  'روبلاکس',
  'بازی',
  'یوتیوب',
  'تیک تاک',
  'اینستاگرام',
  'اینستا',
  'تلگرام',
  'فیلم',
  'سریال',
  'کارتون',
  'انیمه',
  'انیمیشن',
  'آهنگ',
  'موسیقی',
  'خواننده',
  'بازیگر',
  'سلبریتی',
  'سیاست',
  'رئیس جمهور',
  'انتخابات',
  'دوست دختر',
  'دوست پسر',
  'جوک',
  'لطیفه',
  'آشپزی',
  'هواشناسی',
].map(fold);

/** Persian off-topic keywords that must be a whole word. */
const OFF_TOPIC_FA_WHOLE: string[] = ['مسی', 'رئال', 'کلش', 'گیم', 'جنگ'].map(fold);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD_START = '(?:^|[\\s\\p{P}\\p{S}])';
const WORD_END = '(?=$|[\\s\\p{P}\\p{S}])';
const OFF_TOPIC_FA = new RegExp(
  `${WORD_START}(?:${OFF_TOPIC_FA_PREFIX.map(escapeRegExp).join('|')}|(?:${OFF_TOPIC_FA_WHOLE.map(escapeRegExp).join('|')})${WORD_END})`,
  'u',
);

/** English math words (word boundaries). */
const MATH_EN =
  /\b(add|adding|addition|plus|sum|subtract|subtracting|subtraction|minus|difference|multiply|multiplying|multiplication|times|product|divide|dividing|division|quotient|remainder|fractions?|numerator|denominator|decimals?|percent|percentage|numbers?|digits?|equation|equals?|area|perimeter|triangles?|squares?|rectangles?|circles?|angles?|shapes?|length|width|height|meters?|centimeters?|kilograms?|grams?|calculate|solve|math|maths|mathematics|half|halves|third|quarter|how many|how much|average|lcm|gcd|multiples?|factors?|prime|even|odd|geometry)\b/;

/** Persian math words (substring of the folded text). */
const MATH_FA: string[] = [
  'جمع',
  'تفریق',
  'ضرب',
  'تقسیم',
  'کسر',
  'مخرج',
  'اعشار',
  'درصد',
  'عدد',
  'رقم',
  'معادله',
  'مساوی',
  'مساحت',
  'محیط',
  'مثلث',
  'مربع',
  'مستطیل',
  'دایره',
  'زاویه',
  'طول',
  'عرض',
  'ارتفاع',
  'متر',
  'گرم',
  'حساب',
  'ریاضی',
  'نصف',
  'چند',
  'چقدر',
  'میانگین',
  'مضرب',
  'شمارنده',
  'بخش پذیر',
  'هندسه',
  'مسئله',
  'مساله',
].map(fold);

/** An arithmetic expression: two numbers around an operator, or a percentage. */
const EXPRESSION = /\d\s*[-+×x*÷/:=^]\s*\d|\d\s*%/;

const hasMathSignal = (folded: string): boolean =>
  EXPRESSION.test(folded) || MATH_EN.test(folded) || MATH_FA.some((w) => folded.includes(w));

/**
 * Classifies a learner's question before any model call.
 *
 * @param question the userQuestion as sent (any script, any digits).
 * @returns `self_harm`, `off_topic`, or `ask` (let the model answer under the prompt's scope rule). Never throws.
 */
export function classifyQuestion(question: string): TopicVerdict {
  const folded = fold(question);
  const squashed = folded.replace(/ /g, '');
  if (SELF_HARM_EN.some((re) => re.test(folded)) || SELF_HARM_FA.some((p) => squashed.includes(p))) {
    return { kind: 'self_harm' };
  }
  const offTopic = OFF_TOPIC_EN.test(folded) || OFF_TOPIC_FA.test(folded);
  if (offTopic && !hasMathSignal(folded)) return { kind: 'off_topic' };
  return { kind: 'ask' };
}
