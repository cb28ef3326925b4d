/**
 * The tutor's fixed texts (issue 5 §4, issue 16 §3, §4, issue 26 §4; spec Errors): the refusal for off-topic
 * questions, the closing sentences of an answer cut at its time limit, at the model's token cap or by the
 * provider's content filter, the help-line message for self-harm content,
 * the abuse help message, the personal-data message and note, and the sentences that tell a learner whether their
 * attempt at a practice question was right. Each exists in Persian
 * and English; the learner gets the one in the script of their question (`isPersian`), so the text is fixed per
 * language.
 *
 * Help lines (Iran): 123 is the national social emergency line (اورژانس اجتماعی, Welfare Organization), which
 * takes calls about children at risk, abuse and suicide; 1480 is the Welfare Organization's free counselling line
 * (صدای مشاور); 115 is the medical emergency. The numbers need the product owner's confirmation, and a re-check
 * before each release (docs/tutor.md).
 */
import { isPersian } from './text';

export const REFUSAL_TEXT = {
  fa: 'من فقط می‌توانم در ریاضی کمکت کنم. یک سؤال ریاضی بپرس تا با هم حلش کنیم!',
  en: 'I can only help with math. Ask me a math question and we will work it out together!',
} as const;

/**
 * The closing sentence of an answer cut at its time limit (issue 26 §4): the last line of the stream, after a blank
 * line; the app tells such an answer by it (docs/api.md). The question does not count (quota given back).
 */
export const TIME_LIMIT_TEXT = {
  fa: 'پاسخم بیش از حد طول کشید و همین‌جا تمام شد. دوباره بپرس؛ این سؤال از سهم امروزت کم نشد.',
  en: 'My answer took too long and stops here. Ask again: this question did not count toward today’s questions.',
} as const;

/**
 * The closing sentence of an answer the model stopped at its token cap (`finish_reason: length`): the last line of
 * the stream, after a blank line, as {@link TIME_LIMIT_TEXT} (docs/api.md). The question counts when any of the
 * answer was sent (so the text says nothing about the quota); asking again the same way would be cut again, so it
 * asks for a smaller part.
 */
export const LENGTH_LIMIT_TEXT = {
  fa: 'پاسخم بیش از حد طولانی شد و همین‌جا تمام شد. دوباره بپرس، ولی هر بار فقط دربارهٔ یک بخش کوچک‌تر از سؤال.',
  en: 'My answer got too long and stops here. Ask again, about one smaller part of the question at a time.',
} as const;

/**
 * The closing sentence of an answer the model provider's content filter stopped (`finish_reason: content_filter`):
 * the last line of the stream, after a blank line, as {@link TIME_LIMIT_TEXT} (docs/api.md).
 */
export const CONTENT_FILTER_TEXT = {
  fa: 'نمی‌توانم این پاسخ را ادامه بدهم. سؤال ریاضی‌ات را با کلمه‌های دیگری بپرس.',
  en: 'I can’t go on with this answer. Ask your math question in other words.',
} as const;

export const HELP_LINE_TEXT = {
  fa: 'به نظر می‌رسد حالت خوب نیست و این خیلی مهم است. لطفاً همین حالا با پدر، مادر، معلم یا یک بزرگ‌تر مورد اعتمادت صحبت کن. می‌توانی به اورژانس اجتماعی (۱۲۳) یا صدای مشاور بهزیستی (۱۴۸۰) هم زنگ بزنی؛ تماس رایگان است و آن‌ها برای کمک به تو هستند. اگر در خطر فوری هستی، با اورژانس ۱۱۵ تماس بگیر.',
  en: 'It sounds like you are going through something hard, and that matters. Please talk to a parent, a teacher or another adult you trust right now. In Iran you can call the social emergency line 123 or the counselling line 1480; the calls are free and they are there to help you. If you are in danger right now, call 115.',
} as const;

/** The text of `texts` in the language of `question`. */
export const inLanguageOf = (texts: { fa: string; en: string }, question: string): string => (isPersian(question) ? texts.fa : texts.en);

export const ABUSE_HELP_TEXT = {
  fa: 'ممنون که گفتی؛ این تقصیر تو نیست. هیچ‌کس حق ندارد تو را بزند، اذیت کند یا به تو دست بزند. همین حالا به یک بزرگ‌تر مورد اعتمادت (معلم، مشاور مدرسه یا یکی از خانواده) بگو. می‌توانی به اورژانس اجتماعی (۱۲۳) هم زنگ بزنی؛ تماس رایگان است و شبانه‌روز جواب می‌دهند. اگر در خطر فوری هستی، با اورژانس ۱۱۵ تماس بگیر.',
  en: 'Thank you for telling me; this is not your fault. Nobody is allowed to hit you, hurt you or touch you in a way that is not OK. Please tell an adult you trust (a teacher, the school counsellor or someone in your family) right now. In Iran you can also call the social emergency line 123; the call is free and they answer day and night. If you are in danger right now, call 115.',
} as const;

export const PERSONAL_DATA_TEXT = {
  fa: 'لطفاً شماره تلفن، آدرس، کد ملی یا ایمیل خودت یا دیگران را اینجا ننویس؛ این اطلاعات را برای خودت نگه دار. من فقط در ریاضی کمکت می‌کنم: سؤال ریاضی‌ات را بپرس!',
  en: 'Please do not write your phone number, address, national id or e-mail (or anyone else’s) here; keep that information to yourself. I can only help with math: ask me your math question!',
} as const;

/** Put before an answer to a math question from which personal data was removed. */
export const PRIVACY_NOTE = {
  fa: 'یادت باشد اطلاعات شخصی مثل شماره تلفن یا آدرس را اینجا ننویسی؛ آن را پاک کردم.',
  en: 'Remember not to write personal information such as a phone number or an address here; I removed it.',
} as const;

/** Whether the learner's attempt at a practice question was right; `{answer}` is their (wrong) answer. */
export const ATTEMPT_TEXT = {
  right: { fa: 'آفرین! جوابی که دادی درست است.', en: 'Well done! The answer you gave is right.' },
  wrong: {
    fa: 'جواب تو ({answer}) هنوز درست نیست. بیا با هم فکر کنیم.',
    en: 'Your answer ({answer}) is not right yet. Let’s think it through.',
  },
} as const;
