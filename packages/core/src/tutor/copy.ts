/**
 * The tutor's fixed texts (issue 5 §4; spec Errors): the refusal for off-topic questions and the help-line
 * message for self-harm content. Each exists in Persian and English; the learner gets the one in the script of
 * their question (`isPersian`), so the text is fixed per language.
 *
 * Help lines (Iran): 123 is the national social emergency line (اورژانس اجتماعی, Welfare Organization), which
 * takes calls about children at risk and suicide; 1480 is the Welfare Organization's free counselling line
 * (صدای مشاور); 115 is the medical emergency. Product owners should re-check the numbers before each release.
 */
import { isPersian } from './text';

export const REFUSAL_TEXT = {
  fa: 'من فقط می‌توانم در ریاضی کمکت کنم. یک سؤال ریاضی بپرس تا با هم حلش کنیم!',
  en: 'I can only help with math. Ask me a math question and we will work it out together!',
} as const;

export const HELP_LINE_TEXT = {
  fa: 'به نظر می‌رسد حالت خوب نیست و این خیلی مهم است. لطفاً همین حالا با پدر، مادر، معلم یا یک بزرگ‌تر مورد اعتمادت صحبت کن. می‌توانی به اورژانس اجتماعی (۱۲۳) یا صدای مشاور بهزیستی (۱۴۸۰) هم زنگ بزنی؛ تماس رایگان است و آن‌ها برای کمک به تو هستند. اگر در خطر فوری هستی، با اورژانس ۱۱۵ تماس بگیر.',
  en: 'It sounds like you are going through something hard, and that matters. Please talk to a parent, a teacher or another adult you trust right now. In Iran you can call the social emergency line 123 or the counselling line 1480; the calls are free and they are there to help you. If you are in danger right now, call 115.',
} as const;

/** The text of `texts` in the language of `question`. */
export const inLanguageOf = (texts: { fa: string; en: string }, question: string): string => (isPersian(question) ? texts.fa : texts.en);
