/**
 * Word lists of the local fake model's scope rule (`llmScope.ts`; issue 26 §1): the fake's own reading of the tutor
 * prompt's rule, written from what children ask and from the prompt's wording, not from the service's gate
 * (`packages/core/src/tutor/gate/lexicon.json`). Each list is an English and a Persian pattern over the
 * {@link normalize}d text (lower case, ASCII digits, Persian letter forms, ZWNJ as a space).
 *
 * Two kinds of evidence:
 * - of math: something to compute, a math term, quantities (digits and number words), units of measure, time and the
 *   calendar, money, temperature, comparisons, question words about a quantity;
 * - against math: rule changes (the prompt's rule names them), questions to the tutor about itself, language homework,
 *   creative requests, other school subjects and facts about the world, other topics and chit-chat.
 */

/** Persian words (each may carry a suffix: ها, ش, رو, تر…): a regex with letter boundaries (`\b` is ASCII only). */
export const fa = (words: string): RegExp =>
  new RegExp(`(?<!\\p{L})(${words})(ها|های|هایی|ا|ای|ی|یش|ش|شو|شون|و|رو|را|ه|م|مو|ت|تو|تر|تره|ترین|ست|یه|اش)?(?!\\p{L})`, 'u');

/** Attempts to change, reveal or ignore the rules or to play a role: refused whatever else they hold. */
export const RULE_CHANGE = [
  /\b(ignore|disregard|override|bypass) (all |your |the |previous |prior |above |my )*(rules|instructions|prompt|messages)|\bforget (all |your |previous |the |about )*(rules|instructions|everything|you are|math)|\b(pretend|roleplay|role play)\b|\b(act|behave) (as|like) (a |an |my )|\bfrom now on\b|\byou are (now|no longer)\b|\bstop being\b|\bno more math\b|\bignore (the )?math|\bstop (helping|doing|talking|teaching) (me )?(with |about )?math|\b(new|no) rules\b|\b(system prompt|developer mode|jailbreak|dan)\b|\b(print|show|repeat|reveal|tell me) (me )?(your|the) (system |hidden |secret )?(prompt|instructions|rules)|(^|\s)system\s*:|\b(other than|instead of|anything but|not about|except) math\b|\btalk about (anything|something else|whatever)|\bnew rules? *:|\b(answer|talk about) any (question|thing|topic)|\bignore (what|everything|all) (they|you|i)|\b(your|the) (\w+ )?instructions\b|\byour (secret|hidden|real|first) (rules|prompt)\b|\btext above\b/,
  /فراموش کن|نادیده بگیر|وانمود|نقش .{0,30}(بازی|باش)|از این به بعد|از (الان|حالا) (به )?(بعد )?(تو|هر|به هر|همه)|(محدودیت|قانون|قانونی) نداری|ربات آزاد|(دستور|قانون|قوانین)[^ ]{0,4} (مخفی|سری|محرمانه|اصلی)|هر کاری (که )?(میتونی|دلت)|پرامپت|دستور(ات)? ?(اولیه|سیستم)|بدون محدودیت|(قوانین|قانون|دستور|دستورات)[^ ]{0,4} ?(رو |را )?(بهم |به من )?(بیخیال|عوض|تغییر|نشون|بگو|بنویس)|فرض کن (که )?(تو|مامان|بابا)|دیگه .{0,20}نیستی|لازم نیست فقط|ریاضی (رو |را )?(بیخیال|ول)|(بیخیال|ول کن|بسه) ریاضی|ریاضی (کمک |درس )?(نکن|نده)|(غیر از|به جز|بجز|جز) ریاضی|مثل .{1,20} رفتار کن/,
];

/** Operations, fractions, place value, shapes, patterns, statistics, the words of written methods: math terms. */
export const MATH_TERMS = [
  /\b(add|adding|addition|plus|sum|total|altogether|subtract\w*|substract\w*|minus|take away|difference|multipl\w*|multi\w*|mutl\w*|times|tims|product|divid\w*|devid\w*|division|quotient|remainder|share[ds]? (equally|between)|equally|evenly|divi\w*|power|squared|cubed|square root|exponents?|capacity|fract\w*|numerat\w*|denominat\w*|halves|thirds?|quarters?|decimals?|percent\w*|numbers?|digits?|place value|round\w*|rond\w*|estimat\w*|even (number|or odd)|odd|prime|factors?|multiples?|lcm|gcd|area|perimeter|perimiter|permi\w*|volume|angles?|triangles?|squares?|rectangles?|circles?|shapes?|polygons?|pentagons?|hexagons?|octagons?|parallelograms?|trapezoids?|rhombus|quadrilaterals?|sides?|corners?|vertex|vertices|edges|faces|cubes?|cylinders?|spheres?|cones?|pyramids?|symmetr\w*|parallel|perpendicular|line segments?|segments?|rays?|diagonals?|radius|diameter|graph|chart|tally|times tables?|average|(the|a|find|what is) mean|mean of|median|mode|patterns?|sequence|comes next|next number|missing number|count(ing|ed)? (by|backwards?|on|up|down)|skip count\w*|compare|convert|carry|borrow\w*|regroup\w*|column|equals?|equation|solve|calculat\w*|geometry|negative|positive|greater than|less than|number line|inverse|rule of|word problems?|story problems?|method|strategy|math problems?|problems|quiz|mental math)\b|[%=×÷√]/,
  fa(
    'جمع|توان|جذر|گنجایش|پخش کن|تفریق|منها|ضرب|ظرب|ضربدر|تقسیم|تغسیم|بخش ?پذیر|کسر|مخرج|صورت کسر|ربع|اعشار|اعشاری|ممیز|درصد|عدد|اعداد|عددی|رقم|رقمی|ارزش مکانی|یکان|دهگان|صدگان|هزارگان|گرد کن|تخمین|زوج|فرد(?!ا)|عدد اول|شمارنده|مضرب|مساحت|محیط|حجم|زاویه|مثلث|مربع|مستطیل|دایره|شکل|ضلع|اضلاع|راس|رأس|یال|وجه|مکعب|استوانه|هرم|چند ?ضلعی|تقارن|قرینه|موازی|عمود|پاره ?خط|نیم ?خط|قطر|شعاع|نمودار|جدول ضرب|میانگین|الگو|دنباله|جای خالی|مقایسه|مرتب کن|تبدیل|به اضافه|بعلاوه|ده بر یک|قرض|ستونی|مساوی|برابر|معادله|حساب|حل کن|بشمار|بشماریم|شمردن|عقب عقب|منفی|مثبت|محور|مسئله|مساله|روش|راه ?حل|سوال ریاضی|تمرین ریاضی',
  ),
];

/** The names of math itself: math for a request with no evidence against it, not math content ("do you like math?"). */
export const EXPLICIT_MATH = [/\b(math|maths|mathematics|arithmetic)\b/, fa('ریاضی|ریاضیات')];

/** Number words (a quantity like a digit run); weekday names are taken out first (`سه شنبه` is no three). */
export const NUMBER_WORDS = [
  /\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?|half|twice|double|triple|pairs?|zero)\b/g,
  /(?<!\p{L})(دو|سه|چهار|پنج|شش|شیش|هفت|هشت|ده|یازده|دوازده|سیزده|چهارده|پونزده|پانزده|شونزده|شانزده|هفده|هیفده|هجده|هیجده|نوزده|بیست|سی|چهل|پنجاه|شصت|هفتاد|هشتاد|نود|صد|دویست|سیصد|چهارصد|پونصد|پانصد|ششصد|هفتصد|هشتصد|نهصد|هزار|میلیون|میلیارد|جین|دوجین|نصف|نیم|صفر|دوبرابر)(تا|تایی|ها|ش|ی)?(?!\p{L})/gu,
];

/** Weekdays, written out before number words are counted. */
export const WEEKDAYS = /(?<!\p{L})(یک ?شنبه|یکشنبه|دو ?شنبه|سه ?شنبه|چهار ?شنبه|پنج ?شنبه|شنبه|جمعه)(?!\p{L})/gu;

/** Units of measure, time and the calendar, money, temperature: a quantity's unit. */
export const UNITS = [
  /\d *(am|pm)\b|\b(units?|meters?|metres?|cm|mm|km|millimet\w*|centimet\w*|kilomet\w*|inch\w*|feet|foot|grams?|kg|kilos?|kilograms?|tons?|liters?|litres?|ml|cups?|spoons?|teaspoons?|tablespoons?|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|weekends?|months?|years?|decades?|centur\w*|o'?clock|noon|midnight|half past|quarter (past|to)|clock|calendar|dates?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|degrees?|celsius|fahrenheit|thermometer|temperature|below zero|toman|tomans|rials?|dollars?|cents?|coins?|notes|bills|money|price|prices|costs?|change|pay|paid|spent|spend|save|saved|discount|cheaper|expensive|pocket money|allowance|slices?|pieces?|boxes|packs?|bags?|rows?|measur\w*|ruler|protractor|scale|speed|distance|length|width|height|weight|tall|long|far|heavy|late|early)\b/,
  fa(
    'متر|سانت|سانتی ?متر|میلی ?متر|کیلو ?متر|کیلو|گرم|کیلوگرم|تن|لیتر|میلی ?لیتر|لیوان|پیمانه|قاشق|ثانیه|دقیقه|ساعت|ساعتی|روز|روزه|هفته|ماه|سال|ساله|قرن|دهه|ظهر|بامداد|نیمه ?شب|تقویم|تاریخ|فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|ابان|آذر|اذر|دی|بهمن|اسفند|عید|تعطیلات|درجه|دما|دماسنج|زیر صفر|سانتیگراد|تومان|تومن|تومنی|ریال|پول|قیمت|پس ?انداز|تخفیف|بقیه پول|باقی پول|پول خرد|سکه|اسکناس|امتیاز|امتیازات|تیکه|قطعه|جعبه|بسته|ردیف|اندازه|خط ?کش|نقاله|طول|عرض|ارتفاع|وزن|قد|فاصله|سرعت|ارزون|گرون|گرون ?تر|ارزون ?تر|دیر|زود',
  ),
];

/** Question words about a quantity: with a number they make something to compute. */
export const QUANTITY_QUESTION = [
  /\b(how many|how much|how long|how far|how old|how tall|how heavy|how big|how often|how fast|how hot|how cold|what time|what day|which day|what date|which month|what month|when (does|will|did|do|is) (it|the \w+|we|i|they|he|she) (end|start|finish|arrive|get|begin|be)|is it|are there|enough)\b/,
  /چند|چن تا|چقدر|چه ?قدر|چه روزی|چه روز|چه ماهی|کدوم ماه|چه ساعتی|چه تاریخی|کدوم روز|کدام روز|کی (تموم|شروع|میرسه|میرسیم|برمیگرده)|کافیه|بسه\?/,
];

/** Comparisons and words that relate quantities (with two numbers, a word problem). */
export const RELATION = [
  /\b(\w+er than|more|less|fewer|most|least|bigger|smaller|greater|larger|heavier|lighter|longer|shorter|taller|cheaper|warmer|colder|hotter|faster|slower|older|younger|earlier|later|before|after|until|till|ago|from now|left|each|every|per|altogether|in all|in total|total|together|calculate|find|what is|whats|what's|is it|share|split|same|equal|between|difference|order|who won|by how|closer|nearest)\b/,
  /هر |هرکدوم|هر کدوم|روی ?هم|مجموع|باقی|مونده|موند|بقیه|حاصل|کدوم|کدام|(?<!\p{L})\p{L}*[^\sم]تر( از|ه|ین)(?!\p{L})|بیشتر|کمتر|مرتب|دیگه|بعد|قبل|پیش|فرق|اختلاف|نزدیک|برد|باخت|با هم|تقسیم|پخش|یکی|نفری|چی میشه/u,
];

/** Questions to the tutor about itself or the moment, even with a math word in them ("your favourite number"). */
export const ABOUT_THE_TUTOR = [
  /\byour (name|favou?rite|age|job|day|family|friends?|birthday|phone number)\b|\bwho (are|made|built|created) (you|u)\b|\bare (you|u) (a |an )?(robot|human|real|ai|there|alive|bored|smart|a girl|a boy)\b|^(what time is it|what day is (it|today)( today)?|what'?s the date today|what is the date today)[\s?؟!.]*$|\bhow old are (you|u)\b|\bdo (you|u) (like|love|hate) (me|math|numbers)\b/,
  /اسمت|اسم تو|تو کی هستی|کی ساختت|کی (تو|تورو|ترو|تو رو) ساخت|رباتی|مورد علاق|علاقت|چند سالته|شغلت|روزت|^(ساعت چنده|امروز چندمه|امروز چه روزیه|امروز چند شنبه است|امروز چندشنبست)[\s?؟!.]*$|ریاضی دوست داری|از ریاضی خوشت میاد/,
];

/** Language homework, even with a math word or a number in it (`جمع کلمه`, `spell … 3 times`). */
export const LANGUAGE = [
  /\b(spell|spelling|synonyms?|antonyms?|opposite of|plural of|translate|translation|past tense|grammar|rhymes?|rhyming|vowels?|sentences?|paragraph|essay|adjectives?|verbs?|nouns?|alphabet|letters? (of|in) the (word|alphabet)|english words)\b|\b(english|science|history|persian|farsi|arabic|quran|social studies) (homework|exercise|lesson|page|test|exam)|\bhomework\b.{0,20}\b(english|science|history|persian|farsi|arabic)\b/,
  /جمع (کلمه|واژه|مکسر)|(کلمه|واژه) .{1,20} (جمعش|جمع)|مترادف|متضاد|هم ?خانواده|هم ?قافیه|ترجمه|املا|انشا|(?<!\p{L})جمله|حروف الفبا|الفبا|(?<!\p{L})(فعل|صفت|قید|ضمیر)(?!\p{L})|کلم(ه|ات) (انگلیسی|فارسی|عربی)|لغت|(تمرین|درس|تکلیف|کتاب|امتحان)[^.?!؟]{0,20}(فارسی|علوم|انگلیسی|عربی|اجتماعی|قرآن|دینی|هدیه|تاریخ)/u,
];

/** Creative requests: stories, poems, songs, jokes, riddles, games, drawing. */
export const CREATIVE = [
  /\b(story|stories|fairy ?tale|once upon a time|poem|poetry|song|sing|lullaby|rap|joke|jokes|funny|knock knock|riddle|draw|drawing|paint|colou?r(ing)?|game|games|play|playing|let'?s play|20 questions|truth or dare|tic tac toe|rock paper scissors|hide and seek|imagine|make up|invent a|make me laugh|continue the story|how (do i|do you|to|can i) make|slime|origami)\b/,
  fa(
    'داستان|قصه|شعر|آهنگ|آواز|برام بخون|ترانه|لالایی|رپ|جوک|لطیفه|چیستان|معما|نقاشی|رنگ ?آمیزی|بکش|بازی|بازی کنیم|سنگ کاغذ قیچی|قایم ?باشک|خنده ?دار|بخندم|بخندون|تخیلی|یکی بود یکی نبود|ادامشو بگو|ادامه داستان|چطوری درست کنم|چطور درست کنم|اسلایم|کاردستی',
  ),
];

/** Other school subjects and facts about the world: science, history, geography, religion, nature, people. */
export const SUBJECT = [
  /\b(science|history|historical|geography|religion|pray\w*|god|quran|bible|photosynthesis|volcano\w*|earthquakes?|planets?|solar system|sky|moons?|mercury|venus|mars|jupiter|saturn|uranus|neptune|pluto|sun|stars?|earth|space|astronaut\w*|gravity|atoms?|cells?|oxygen|water cycle|rain|clouds?|weather|seasons?|electricity|magnets?|plants?|trees?|flowers?|seeds?|animals?|insects?|spiders?|ants?|bees?|birds?|fish|sharks?|whales?|dinosaurs?|penguins?|lions?|tigers?|elephants?|snakes?|frogs?|bones?|teeth|tooth|legs? (does|do) an? \w+|wings?|tails?|heart|brain|blood|lungs?|muscles?|body|senses|germs?|virus\w*|countr(y|ies)|continents?|oceans?|seas?|rivers?|mountains?|deserts?|islands?|capital|population|flags?|china|france|iran|america|europe|africa|asia|president|kings?|queens?|emperor|wars?|revolution|ancient|pyramids of|wonders of the world|invent\w*|discover\w*|scientists?|poets?|famous|shahnameh|ferdowsi|hafez|saadi|cyrus)\b|\b(who (is|was|were|won|wrote|invented|made|discovered|built|painted|sang)|when (did|was|were)|where (is|are|do|does|did|was)|which (year|country|city|animal)|what happened|what (do|does) \w+ eat|what causes|universe|galaxy|tower|thunder|lightning|storms?|what did (people|they|humans|kids)|how do (we|they|you) know|what language|speak in|outside|in the world|is (\w+ )?real\b(?! numbers?)|santa|tooth fairy|ghosts?|monsters?|unicorns?|dragons?|aliens?|buildings?|brazil|japan|germany|india|russia|egypt|turkey|iraq|why (is|are|do|does) (the )?(sky|sea|ocean|sun|moon|grass|leaves|birds?|fish|cats?|dogs?|people|water|ice|earth|stars?)|name (\d+|some|all|a few|the)|list (\d+|some|all|the)|tell me about|what is the (capital|population|name)|what does (the word )?\W?[a-z]+\W? mean|meaning of|how do you (say|pronounce)|(say|said|translate|word for) .{0,30}\bin (english|persian|farsi|arabic|french))\b/,
  fa(
    'علوم|جغرافی|جغرافیا|مطالعات اجتماعی|دینی|قرآن|نماز|خدا|پیامبر|امام|فتوسنتز|آتشفشان|زلزله|سیاره|منظومه شمسی|عطارد|زهره|مریخ|مشتری|زحل|اورانوس|نپتون|پلوتو|خورشید|ستاره|کره زمین|زمین|فضا|فضانورد|جاذبه|اتم|سلول|اکسیژن|باران|بارون|ابرها|آب و هوا|هوا|بهار|برق|آهنربا|آهن ?ربا|گیاه|درخت|گل|دانه|حیوان|حیوون|حیوانات|حشره|حشرات|عنکبوت|مورچه|زنبور|عسل|پرنده|(?<!چه )ماهی|کوسه|نهنگ|دایناسور|پنگوئن|ببر|فیل|مار|قورباغه|استخوان|دندون|دندان|پا|بال|قلب|مغز|خون|ریه|عضله|بدن|حواس|میکروب|ویروس|کشور|قاره|اقیانوس|دریا|رود|رودخانه|کوه|کویر|جزیره|پایتخت|جمعیت|پرچم|چین|فرانسه|ایران|آمریکا|اروپا|اروپایی|آفریقا|آسیا|رئیس ?جمهور|پادشاه|شاه|ملکه|جنگ|انقلاب|باستان|عجایب|اختراع|کشف|دانشمند|شاعر|شاعرای|معروف|شاهنامه|فردوسی|حافظ|سعدی|کوروش|درس تاریخ|تاریخی|چه کسی|کی بود|کی (کشید|کشیده|نوشت|نوشته|ساخت|ساخته|اختراع|کشف|خونده|گفته)|کیه|کجاست|کجا زندگی|زندگی می ?کنن?|چه سالی|چیکار کرد|چی شد|اسم ببر|نام ببر|اسمشون|معنی|معنای|به انگلیسی|انگلیسیش|تلفظ|میوه|سبزی|فصل ?ها|پرستو|زبون|زبان|(?<!به )دنیا|جهان|کهکشان|آسمان|آسمون|برج|رعد|طوفان|بابا ?نوئل|دیو|پری دریایی|جن|واقعیه|روح|هیولا|تک ?شاخ|اژدها|آدم فضایی|ساختمون|ساختمان|دین|مذهب|برزیل|ژاپن|آلمان|هند|روسیه|مصر|ترکیه|عراق|بیرون',
  ),
];

/** Other topics: sports, games and apps, films and music, things and people the child likes. */
export const OTHER_TOPIC = [
  /\b(football|soccer|basketball|volleyball|tennis|sports?|goals?|players?|team|teams|match|world cup|champions league|league|messi|ronaldo|persepolis|esteghlal|minecraft|fortnite|roblox|robux|candy crush|pubg|pokemon|clash|royale|among us|vbucks|brawl stars|free fire|gems|level \d+|subway surfers|video games?|free|youtube|youtuber|instagram|tiktok|followers|app|apps|phone|iphone|samsung|tablet|film|movie|anime|cartoon|disney|singer|music|clothes|shoes|cars?|best \w+|favou?rite)\b/,
  fa(
    'فوتبال|والیبال|بسکتبال|ورزش|بازیکن|گل زد|تیم|مسابقه|جام جهانی|قهرمان|لیگ|مسی|رونالدو|پرسپولیس|استقلال|ماینکرفت|فورتنایت|روبلاکس|کندی کراش|پابجی|پوکمون|کلش|ساب ?وی|مرحله [^s]+ .{0,30}رد (کنم|شم)|فری فایر|روباکس|جم|الماس|مجانی|رایگان|یوتیوب|یوتیوبر|اینستا|اینستاگرام|تیک ?تاک|فالوور|گوشی|آیفون|سامسونگ|تبلت|فیلم|سریال|انیمه|کارتون|خواننده|موسیقی|لباس|کفش|ماشین|بهترین',
  ),
];

/**
 * Chit-chat: greetings, thanks, feelings and the child's day, family, pets and food, remarks and questions about the
 * tutor as a person. A word problem is often told this way, so a quantity makes it math (`my cat had 4 kittens…`).
 */
export const CHITCHAT = [
  /^(h+i+|hello|he+y+|hiya|salam|yo|sup|good (morning|night|evening|afternoon))\b|\b(how are (you|u)|what'?s up|bye|goodbye|see you|lol|haha|hehe|thanks?|thank you|ok|okay|cool|wow|i'?m (bored|sad|happy|tired|hungry|sleepy|sick|scared|angry)|i am (bored|sad|happy|tired|hungry|sleepy|sick|scared|angry)|i feel|i had a|i miss|my (mom|dad|mum|brother|sister|friend|cat|dog|tooth|grandpa|grandma)|love you|hate you|can we be friends|be my (best )?friend|let'?s (talk|chat)|talk about|chat about|pets?|dogs?|cats?|puppy|kitten|hamster|rabbit|parrot|name for my|food|pizza|recipe|cook\w*|pancakes?|breakfast|lunch|dinner|birthday party|holiday|vacation|chores|school|stupid|dumb|idiot|boring|siri|alexa|chatgpt|you are (so |very |really )?\w+|you'?re (so |very |really )?\w+|u r \w+|are (you|u) (a |an )?\w+|do (you|u) (have|like|love|dream|sleep|eat|know (me|my|who)|miss|play|feel)|what do (you|u) (like|do|want|think|eat)|what are (you|u) doing|where (are|do) (you|u)( live| from)?)\b/,
  /^(سلام\p{L}{0,2}|درود|هی|صبح بخیر|شب بخیر|عصر بخیر)(?!\p{L})|^(تو|شما)( [^\s]+){0,3}(ی|ید|ین)( یا [^\s]+)?[\s?؟!.]*$|^(سلام )?(خوبی|چطوری)( [^\s]+)?[\s?؟!.]*$/u,
  fa(
    'حالت چطوره|چه خبر|خداحافظ|بای|مرسی|ممنون|باشه|اوکی|خخ?|هه?|حوصلم|حوصله ام|حوصلم سر رفته|خسته ام|خستم|ناراحتم|خوشحالم|گرسنمه|گشنمه|ترسیدم|عصبانیم|امروز روز|دوستت دارم|دوست بشیم|حرف بزنیم|صحبت کنیم|مامانم|بابام|داداشم|آبجیم|خواهرم|برادرم|دوستم|بابابزرگم|مامان ?بزرگم|گربه|گربم|سگ|حیوون خونگی|همستر|خرگوش|طوطی|غذا|پیتزا|آشپزی|پنکیک|صبحونه|ناهار|شام|اسباب ?بازی|تولدم|مهمونی|اتاقم|کار خونه|مدرسه|بیشعور|خنگ|احمق|دلم گرفته|دلم تنگ|دلم برای|دوستم داری|منو دوست داری|چی دوست داری|چیکار میکنی|چیکار می کنی|هستی|اهل کجایی|سیری|الکسا|اسم منو|اسممو',
  ),
];
