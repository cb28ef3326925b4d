/**
 * The local fake model's reading of the tutor prompt's scope rule (issue 16 §2, issue 26 §1): whether a message is
 * about math, judged the way a model reading the rule would, with word lists of its own — not the service's gate
 * (`packages/core/src/tutor/gate/`), so that stage 2 is a second opinion and its late-refusal path runs end to end.
 *
 * In this order:
 * 1. a rule change, a role play or a request for the prompt → not math;
 * 2. something to compute → math: an expression (years are not operands), two numbers with a question or quantity
 *    word, three numbers or more (a sequence, a list to order), a number with a unit and a question word;
 * 3. chit-chat about the tutor or the child (greetings, "your favourite…", "what time is it") and language homework
 *    (spelling, synonyms, `جمع کلمه`) → not math;
 * 4. math words → math: operations, fractions, decimals, place value, shapes, patterns, the words of written
 *    methods (carry, borrow, regroup), "math" (typed with the usual slips); a number with a question word ("what
 *    is 45?", "how many legs do 3 spiders have");
 * 5. in a conversation (an earlier answer, or a practice question in the prompt), a follow-up ("why?",
 *    "where is my mistake?") → math;
 * 6. a story, poem, song, joke or game, a fact about people, places, animals or history, another school subject,
 *    sports, films, games and apps → not math;
 * 7. measures and units (length, mass, time, money), comparisons → math; a short message in a conversation → math;
 * 8. words of the message found in the textbook text of the prompt → math; anything else → not math.
 */

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
    .toLowerCase()
    .replace(/[يى]/g, 'ی')
    .replace(/ك/g, 'ک')
    .replace(/[\u200c\u200d]/g, ' ')
    .replace(/[\u064B-\u065F\u0670]/g, '');
}

/** Persian words (each may carry a suffix: ها, ش, رو, تر…): a regex with letter boundaries (`\b` is ASCII only). */
const fa = (words: string): RegExp =>
  new RegExp(`(?<!\\p{L})(${words})(ها|های|هایی|ی|یش|ش|شو|و|رو|را|ه|م|مو|ت|تو|تر|ترین|ست|یه)?(?!\\p{L})`, 'u');

/** Whether `q` matches the English and the Persian pattern of a list. */
const any = (q: string, ...res: RegExp[]) => res.some((re) => re.test(q));

const RULE_CHANGE = [
  /\b(ignore|disregard|override|bypass) (all |your |the |previous |prior |above |my )*(rules|instructions|prompt)|\bforget (all |your |previous |the |about )*(rules|instructions|everything|you are|math)|\b(pretend|roleplay|role play)\b|\b(act|behave) as\b|\bfrom now on\b|\byou are (now|no longer)\b|\bstop being\b|\bno more math\b|\bignore (the )?math|\bstop (helping|doing|talking|teaching) (me )?(with |about )?math|\b(new|no) rules\b|\b(system prompt|developer mode|jailbreak|dan)\b|\b(print|show|repeat|reveal) (me )?(your|the) (system |hidden )?(prompt|instructions)|(^|\s)system\s*:/,
  /فراموش کن|نادیده بگیر|وانمود|نقش .{0,30}(بازی|باش)|از این به بعد|از الان (به بعد )?(تو|هر)|پرامپت|دستورات? (اولیه|سیستم)|بدون محدودیت|(قوانین|قانون|دستورات)[^ ]{0,4} ?(رو |را )?(بیخیال|عوض|تغییر)|فرض کن (که )?تو |دیگه .{0,20}نیستی|لازم نیست فقط|ریاضی (رو |را )?(بیخیال|ول)|(بیخیال|ول کن|بسه) ریاضی|ریاضی (کمک |درس )?(نکن|نده)/,
];

const CHITCHAT = [
  /^(hi|hello|hey|hiya|salam|yo)\b|\bhow are (you|u)\b|\byour (name|favou?rite|age|job|day|family|friend)\b|\bwho (are|made|built|created) you\b|\bare (you|u) (a |an )?(robot|human|real|ai|there|alive|bored)\b|\bwhat time is it\b|\bwhat day is (it|today)\b|\b(i'?m|i am|im) (bored|sad|happy|tired)\b|\b(love|hate) you\b|\bgood (night|morning)\b|\b(bye|goodbye|lol|haha)\b|\bcan we be friends\b/,
  /^سلام|خوبی|حالت چطوره|اسمت|اسم تو|تو کی هستی|کی ساخت|رباتی|مورد علاق|علاقت|حوصلم|حوصله ام|دوستت دارم|خداحافظ|شب بخیر|صبح بخیر|ساعت چنده|امروز چندمه|چه خبر|چیکار میکنی|چند سالته|شغلت|روزت|خخخ/,
];

/** Language homework, even with a math word in it (`جمع کلمه`, `spell … 3 times`). */
const LANGUAGE = [
  /\b(spell|spelling|synonym|antonym|plural of|translate|past tense|grammar)\b|\b(english|science|history|persian|farsi|arabic) (homework|exercise|lesson|page)/,
  /جمع (کلمه|واژه)|مترادف|متضاد|هم ?خانواده|ترجمه|املا|انشا|(تمرین|درس|تکلیف|کتاب)[^.?!؟]{0,20}(فارسی|علوم|انگلیسی|عربی|اجتماعی)/,
];

/** Words that make a message about math whatever else it is about. */
const MATH_WORDS = [
  /\b(add|adding|addition|plus|sum|total|altogether|subtract\w*|substract\w*|minus|take away|difference|multipl\w*|multi\w*|mutl\w*|times|tims|product|divid\w*|devid\w*|division|quotient|remainder|share[ds]? (equally|between)|equally|evenly|divi\w*|power|squared|cubed|exponents?|capacity|holds?|fract\w*|numerat\w*|denominat\w*|halves|half|thirds?|quarters?|decimals?|percent\w*|digits?|numbers?|place value|round\w*|rond\w*|estimat\w*|even|odd|prime|factors?|multiples?|lcm|gcd|area|perimeter|perimiter|permi\w*|volume|angles?|triangles?|squares?|rectangles?|circles?|shapes?|polygons?|pentagons?|hexagons?|parallelograms?|trapezoids?|rhombus|quadrilaterals?|sides?|corners?|vertex|vertices|edges|faces|cubes?|symmetry|parallel|perpendicular|graph|chart|times tables?|average|mean|median|patterns?|sequence|comes next|next number|missing number|count(ing)? by|the same as|compare|convert|carry|borrow\w*|regroup\w*|column|equals?|equation|solve|calculat\w*|math|maths|arithmetic|geometry|zero)\b|[%=×÷]/,
  fa(
    'جمع|توان|گنجایش|پخش کن|تفریق|منها|ضرب|ظرب|ضربدر|تقسیم|تغسیم|بخش ?پذیر|کسر|مخرج|صورت کسر|نصف|ربع|اعشار|اعشاری|ممیز|درصد|عدد|اعداد|رقم|ارزش مکانی|یکان|دهگان|صدگان|گرد|تخمین|زوج|عدد فرد|عدد اول|شمارنده|مضرب|مساحت|محیط|حجم|زاویه|مثلث|مربع|مستطیل|دایره|شکل|ضلع|راس|مکعب|تقارن|موازی|عمود|نمودار|جدول ضرب|میانگین|الگو|دنباله|بعدی|جای خالی|مقایسه|مرتب کن|تبدیل|به اضافه|بعلاوه|ده بر یک|قرض|ستونی|مساوی|برابر|معادله|حساب|حل کن|بشمار|ریاضی|صفر',
  ),
];

/** Measures, money, time and comparisons: math unless the message is about something else. */
const MEASURE_WORDS = [
  /\b(bigger|smaller|greater|larger|less|fewer|more than|heavier|lighter|longer|shorter|taller|cheaper|order|units?|meters?|metres?|cm|mm|km|millimet\w*|centimet\w*|kilomet\w*|grams?|kg|kilograms?|liters?|litres?|ml|seconds|minutes?|hours?|weeks?|o'?clock|degrees?|toman|tomans|rials?|dollars?|cents?|money|price|costs?|change|pay|paid|spent|save|measur\w*|ruler|protractor)\b/,
  fa(
    'بزرگ ?تر|کوچ[یی]?ک ?تر|بیشتر|کمتر|سنگین ?تر|سبک ?تر|بلند ?تر|کوتاه ?تر|ارزا?و?ن ?تر|گرا?و?ن ?تر|متر|سانت|سانتی ?متر|میلی ?متر|کیلو ?متر|کیلو|گرم|کیلوگرم|لیتر|میلی ?لیتر|ثانیه|دقیقه|ساعت|هفته|درجه|تومان|تومن|ریال|پول|قیمت|پس ?انداز|اندازه|خط ?کش|نقاله',
  ),
];

const NOT_MATH = [
  /\b(story|stories|poem|song|sing|joke|jokes|riddle|draw|paint|game|games|play|football|soccer|goals?|players?|team|messi|ronaldo|minecraft|fortnite|roblox|youtube|youtuber|instagram|tiktok|film|movie|anime|cartoon|singer|iphone|samsung|phone|pet|dogs?|cats?|spiders?|animals?|planets?|moon|sun|earth|sky|country|countries|continents?|china|france|iran|president|king|queen|war|history|science|geography|english|photosynthesis|volcano|weather|recipe|cook|pancakes?|people|famous)\b/,
  fa(
    'داستان|قصه|شعر|آهنگ|جوک|لطیفه|چیستان|نقاشی|بازی|فوتبال|بازیکن|گل زد|تیم|مسی|رونالدو|پرسپولیس|استقلال|ماینکرفت|یوتیوب|اینستا|فیلم|انیمه|کارتون|خواننده|گوشی|آیفون|سامسونگ|گربه|سگ|حیوان|عنکبوت|سیاره|خورشید|زمین|ماه|آسمان|کشور|قاره|چین|رئیس جمهور|پادشاه|جنگ|تاریخ|علوم|فارسی|انگلیسی|فتوسنتز|آتشفشان|هوا|بارون|باران|آشپزی|پنکیک|مردم|معروف|کوه',
  ),
];

const FACT = [
  /\b(who (is|was|won|wrote|invented|made)|when (did|was|is)|where (is|do|does|did)|which year|how many people|population|live in|capital of|invented|discovered)\b/,
  /چه کسی|کی بود|کیه|کجاست|چه سالی|جمعیت|زندگی می ?کنن|پایتخت|اختراع|کشف/,
];

/** Question and quantity words: with numbers they make something to compute. */
const CUE = [
  /\b(how many|how much|how long|how far|how old|what is|whats|what's|each|every|per|left|altogether|in all|in total|calculate|find|is it|bigger|smaller|greater|larger|more|less|heavier|longer|cheaper|order|when (does|will|did) (it|the \w+) (end|start|finish|arrive)|what time (will|does|did))\b/,
  /هر |هرکدوم|روی هم|مجموع|باقی|موند|چند|چن |چن تا|چقدر|حاصل|کدوم|کدام|چی میشه|بزرگ ?تر|کوچ[یی]?ک ?تر|بیشتر|کمتر|مرتب|کی (تموم|شروع|میرسه)|چه ساعتی/,
];

const FOLLOW_UP =
  /^(why|how|what do you mean|i don'?t (understand|get it)|explain|again|next|hint|ok|thanks?)|^(چرا|چطور|یعنی چی|نفهمیدم|متوجه نشدم|دوباره|توضیح|راهنمایی|مرسی|ممنون|باشه|اشتباه|کجاش|حالا چی)/;

/** Numbers of a text that are not years (13xx, 14xx, 19xx, 20xx). */
const quantities = (s: string) => (s.match(/\d+(?:[.,]\d+)?/g) ?? []).filter((n) => !/^(1[34]|19|20)\d\d$/.test(n));
const yearless = (s: string) => s.replace(/(?<!\d)(1[34]|19|20)\d\d(?!\d)/g, ' ');

/** Something to compute in `q` (normalized): see step 2 of the module doc. */
function computable(q: string): boolean {
  const n = quantities(q).length;
  return /[0-9]\s*[-+×x*÷/:=]\s*[0-9]/.test(yearless(q)) || (n >= 2 && any(q, ...CUE)) || n >= 3;
}

/** Whether the fake considers `question` not about math, given the system prompt and the earlier turns. */
export function isOffTopic(question: string, system: string, earlier: ChatTurn[]): boolean {
  const q = normalize(question);
  if (any(q, ...RULE_CHANGE)) return true;
  if (computable(q)) return false;
  if (any(q, ...CHITCHAT, ...LANGUAGE)) return true;
  if (any(q, ...MATH_WORDS) || (quantities(q).length >= 1 && any(q, ...CUE))) return false;
  const inConversation = earlier.some((m) => m.role === 'assistant') || system.includes('Practice question:');
  if (inConversation && FOLLOW_UP.test(q.trim())) return false;
  if (any(q, ...NOT_MATH, ...FACT)) return true;
  if (any(q, ...MEASURE_WORDS)) return false;
  if (inConversation && q.split(/\s+/).length <= 8) return false;
  // Words of the question found in the textbook text of the prompt make it a question about the lesson.
  const book = normalize(system.split('From the textbook:')[1] ?? '');
  const words = q.split(/[^\p{L}]+/u).filter((w) => w.length >= 4);
  return !(book && words.some((w) => book.includes(w)));
}
