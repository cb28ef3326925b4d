/**
 * Display-name policy (spec "User and profile": "Phone numbers, links, contact handles and social handles
 * are stripped or refused"). The learners are children, and the display name is shown to other learners on
 * the leaderboard, so it must not carry a way to contact them.
 *
 * Choice: REFUSE, never strip. Stripping has to find the exact extent of what it removes, and a name that
 * had a phone number or handle removed can still leak it through creative spacing, punctuation or a second
 * digit system ('0912 ۱۲۳ 45 67', 't . me / ali'); what is left may also be meaningless. Refusing only has to
 * notice that something contact-like is there, the learner sees why (`fields.displayName`) and picks another
 * name. The checks are deliberately broad (e.g. any 7 digits anywhere), because a real name never needs them.
 *
 * Detection works on a "probe" copy of the name that is NFKC-folded (fullwidth, circled and styled letters
 * and digits become plain ones), lower-cased, stripped of invisible characters, Arabic diacritics and tatweel,
 * with Arabic letter variants mapped to Persian ones (ي→ی, ك→ک, آ→ا) and common Cyrillic/Greek look-alikes
 * mapped to Latin. Some checks also look at the probe with spaces or all punctuation removed, to catch
 * 't e l e g r a m' and 'ali . com'. Words that are also ordinary Persian names or words (بله "yes",
 * ایتا / آیتا, سروش Soroush, گپ, 'id', 'page'…) are refused only when followed by a handle-like token.
 * Not covered: digits spelled as words and letters standing in for digits ('O912…').
 */
import type { DomainError } from '../errors';
import { profileErrors } from './errors';

/** Longest accepted display name, in Unicode code points after cleaning (an emoji may count as several). */
export const DISPLAY_NAME_MAX_LENGTH = 30;
/** A name with this many digits in total, in any digit system and however separated, is refused as a phone number. */
export const PHONE_DIGITS = 7;

const LENGTH = `displayName must be 1 to ${DISPLAY_NAME_MAX_LENGTH} characters long`;
const PHONE = `displayName must not contain a phone number (${PHONE_DIGITS} or more digits)`;
const LINK = 'displayName must not contain a link or web address';
const AT = "displayName must not contain '@' (handles and email addresses are not allowed)";
const EMAIL = 'displayName must not contain an email address';
const SOCIAL = 'displayName must not mention a messaging or social app or a contact ID';

// Word boundaries that also work for Persian letters (`\b` only knows ASCII word characters).
const START = '(?<![\\p{L}\\p{N}])';
const END = '(?![\\p{L}\\p{N}])';
const re = (source: string) => new RegExp(source, 'u');

/** Top-level domains refused after `label.` when written without spaces ('ali.ir', 'bit.ly', 't.me'). */
const TLDS =
  'com|org|net|ir|me|io|co|info|biz|app|dev|xyz|ai|tv|site|online|link|ly|gl|gg|to|us|uk|de|ru|cc|eu|in|top|club|shop|store|blog|live|tk|ml|ws|su|pro|tech|ایران';
/** Domains refused even when spaced out ('ali . com'): only those that cannot be an initial and a word. */
const SPACED_TLDS = 'com|org|net|ir|io|info|biz|xyz|site|online|ایران';
/** Top-level domains spelled out after "dot" ('ali dot com', 'علی نقطه کام', 'دات آی آر'). */
const SPELLED_TLDS = 'com|net|org|ir|io|me|info|کام|نت|ارگ|اورگ|ای ?ار';

/**
 * The checks' patterns, compiled at the first name checked, not at import: a `u` pattern with `\p{…}` classes costs
 * its parse (about 1.4 ms for these on a cold Lambda), and most requests of the groups that import this module check
 * no name.
 */
function compilePatterns() {
  const link = [
    /:\/\//u,
    re(`${START}(?:https?|ftp|www)${END}`),
    re(`[\\p{L}\\p{N}_-]\\.(?:${TLDS})${END}`),
    re(`${START}(?:t|wa)\\s*\\.\\s*me${END}`),
  ];
  /** Checked on the probe without whitespace. */
  const spacedLink = [re(`[\\p{L}\\p{N}_-]\\.(?:${SPACED_TLDS})${END}`)];
  /** Checked on the probe with punctuation turned into spaces. */
  const spelledLink = re(`${START}(?:dot|نقطه|دات|دوت) ?(?:${SPELLED_TLDS})${END}`);

  const email = re(`${START}(?:gmail|yahoo|hotmail|outlook|ymail|protonmail|ایمیل|email|e mail)${END}`);

  /** Apps and contact words that never occur in names: refused at the start of any word ('instaali' too). */
  const alwaysSocial = re(
    `${START}(?:${[
      'telegram',
      'instagram',
      'insta',
      'whats ?app',
      'eitaa',
      'rubika',
      'snapchat',
      'tik ?tok',
      'facebook',
      'twitter',
      'youtube',
      'discord',
      'skype',
      'viber',
      'igap',
      'linkedin',
      'تلگرام',
      'اینستا',
      'واتس ?اپ',
      'روبیکا',
      'اسنپ ?چت',
      'تیک ?تاک',
      'فیس ?بوک',
      'توییتر',
      'یوتیوب',
      'دیسکورد',
      'اسکایپ',
      'وایبر',
      'ایگپ',
      'لینکدین',
    ].join('|')})`,
  );
  /** Contact words that never occur in names but may start one ('آیدین' is a name): refused as whole words. */
  const contactWords = re(`${START}(?:ایدی(?:م|ت|ش)?|دایرکت)${END}`);
  /** App names long and specific enough to look for inside the name with every separator removed. */
  const squeezedSocial = /telegram|instagram|whatsapp|snapchat|facebook|youtube|rubika|تلگرام|اینستاگرام|واتساپ|روبیکا|یوتیوب|فیسبوک/u;
  /**
   * Words refused only when followed by a handle-like token: `:`/`=`/`>` (a label), or an ASCII token of 3+
   * characters with a letter and a digit, `_` or `.` ('bale ali_kid', 'ایتا: sara', 'ig_ali'). 'بله', 'آیتا',
   * 'سروش ۲' or 'Page Turner' pass.
   */
  const handleAfter = '\\s*(?:[:=>→]|(?=[a-z0-9_.]*[a-z])(?=[a-z0-9_.]*[_.\\d])[a-z0-9_.]{3,})';
  const socialWithHandle = re(
    `${START}(?:${[
      'bale',
      'بله',
      'ita',
      'ایتا',
      'soroush',
      'سروش',
      'gap',
      'گپ',
      'ig',
      'tg',
      'wa',
      'fb',
      'yt',
      'id',
      'page',
      'پیج',
      'channel',
      'کانال',
      'pv',
      'dm',
      'tel',
      'phone',
      'call',
      'sms',
      'شماره',
      'تماس',
      'پیامک',
      'follow',
      'فالو',
    ].join('|')})${END}${handleAfter}`,
  );
  return { link, spacedLink, spelledLink, email, alwaysSocial, contactWords, squeezedSocial, socialWithHandle };
}
let compiled: ReturnType<typeof compilePatterns> | undefined;
const patterns = () => {
  compiled ??= compilePatterns();
  return compiled;
};

/** Cyrillic and Greek letters that look like Latin ones (lower case, after NFKC). */
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  ӏ: 'l',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};
/** Arabic letter variants to the Persian letters the keyword lists use. */
const PERSIAN_LETTERS: Record<string, string> = { ي: 'ی', ى: 'ی', ئ: 'ی', ك: 'ک', ة: 'ه', ۀ: 'ه', أ: 'ا', إ: 'ا', آ: 'ا', ٱ: 'ا', ؤ: 'و' };
const LOOKALIKE_PATTERN = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'gu');
const PERSIAN_LETTER_PATTERN = new RegExp(`[${Object.keys(PERSIAN_LETTERS).join('')}]`, 'gu');

/** Invisible format and control characters, except whitespace, ZWNJ (Persian half-space) and ZWJ (emoji). */
const INVISIBLE = /(?![\s\u200c\u200d])[\p{Cc}\p{Cf}]/gu;

/** The name as it will be stored: see {@link cleanDisplayName}. */
function clean(raw: string): string {
  return raw
    .replace(INVISIBLE, '')
    .replace(/\s+/gu, ' ')
    .replace(/\u200c+/g, '\u200c')
    .replace(/(^| )[\u200c\u200d]+/g, '$1')
    .replace(/[\u200c\u200d]+(?= |$)/g, '')
    .trim()
    .normalize('NFC');
}

/** The folded copy of the name the checks run on (see the module comment). */
function probeOf(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Cf}\p{Mn}\u0640]/gu, '')
    .replace(PERSIAN_LETTER_PATTERN, (c) => PERSIAN_LETTERS[c] ?? c)
    .replace(LOOKALIKE_PATTERN, (c) => LOOKALIKES[c] ?? c)
    .replace(/[([{]\s*\.\s*[)\]}]/g, '.')
    .replace(/[۔。｡․‧·•∙⋅٫]/g, '.');
}

/** The reasons a cleaned name is refused; empty when it is acceptable. */
function contactReasons(name: string): string[] {
  const probe = probeOf(name);
  const noSpaces = probe.replace(/\s+/gu, '');
  const words = probe.replace(/[^\p{L}\p{N}]+/gu, ' ');
  const squeezed = probe.replace(/[^\p{L}\p{N}]+/gu, '');
  const reasons = new Set<string>();
  if ((probe.match(/\p{N}/gu)?.length ?? 0) >= PHONE_DIGITS) reasons.add(PHONE);
  const p = patterns();
  if (p.link.some((r) => r.test(probe)) || p.spacedLink.some((r) => r.test(noSpaces)) || p.spelledLink.test(words)) reasons.add(LINK);
  if (probe.includes('@')) reasons.add(AT);
  if (p.email.test(words)) reasons.add(EMAIL);
  if (p.alwaysSocial.test(words) || p.contactWords.test(words) || p.squeezedSocial.test(squeezed) || p.socialWithHandle.test(probe))
    reasons.add(SOCIAL);
  return [...reasons];
}

/**
 * Cleans a display name and enforces the contact-information policy (spec "User and profile"; policy and
 * rationale in the module comment).
 *
 * Cleaning: removes invisible control/format characters (bidi marks, zero-width spaces; keeps the Persian
 * ZWNJ between letters and the emoji ZWJ), collapses every run of whitespace to one space, trims, and
 * normalizes to NFC.
 *
 * Refused (never stripped): {@link PHONE_DIGITS} or more digits in total (ASCII, Persian, Arabic-Indic or
 * any other digit system, however separated, with or without +98/0098/0), links and domains (`://`, `www`,
 * 'label.tld' for common TLDs incl. .ir .com .org .net .me .io, 'dot com' spelled out), any '@'
 * (handles, emails), email providers, names of messaging and social apps (Telegram/تلگرام,
 * Instagram/اینستاگرام/insta, WhatsApp/واتساپ, t.me, wa.me, Eitaa, Rubika/روبیکا…), and words such as
 * bale/بله, ایتا, id, ig when followed by a handle-like token.
 *
 * @param raw the name as sent by the client.
 * @returns the cleaned name, 1 to {@link DISPLAY_NAME_MAX_LENGTH} code points.
 * @throws DomainError `validation_error` with `fields.displayName` listing every rule the name breaks
 *   (length, phone number, link, '@', email, messaging app).
 */
export function cleanDisplayName(raw: string): string {
  if (typeof raw !== 'string') throw refuse([LENGTH]);
  const name = clean(raw);
  const length = [...name].length;
  const reasons = [...(length < 1 || length > DISPLAY_NAME_MAX_LENGTH ? [LENGTH] : []), ...contactReasons(name)];
  if (reasons.length > 0) throw refuse(reasons);
  return name;
}

function refuse(reasons: string[]): DomainError {
  return profileErrors.invalidDisplayName(reasons);
}
