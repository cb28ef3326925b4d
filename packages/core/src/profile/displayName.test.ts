import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { cleanDisplayName, DISPLAY_NAME_MAX_LENGTH } from './displayName';

/** The `fields.displayName` messages of the refusal, or [] when the name is accepted. */
function reasons(raw: string): string[] {
  try {
    cleanDisplayName(raw);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const e = error as DomainError;
    expect(e.code).toBe('validation_error');
    expect(e.extra.fields?.displayName?.length).toBeGreaterThan(0);
    expect(e.detail).toBe(e.extra.fields?.displayName?.join('; '));
    return e.extra.fields?.displayName ?? [];
  }
}

const PHONE = /phone number/;
const LINK = /link or web address/;
const AT = /'@'/;
const EMAIL = /email address/;
const SOCIAL = /messaging or social app/;
const LENGTH = /1 to 30 characters/;

describe('cleanDisplayName: ordinary names pass unchanged', () => {
  it.each([
    'علی',
    'بهاره',
    'Sara',
    'محمد ۲',
    'محمد 2',
    'محمدرضا',
    'علی\u200cرضا',
    'فاطمه زهرا',
    'امیرحسین',
    'یاسمن',
    'ستاره',
    'کیان',
    'مهدی گرامی',
    'Ali Reza',
    'Anna-Maria',
    "O'Brien",
    'Mr. Bean',
    'A. Mehdi',
    'Sara.M',
    'Justin Stark',
    'Christina',
    'Igor',
    'Telma',
    'Callum',
    'Dot',
    'Com',
    'Iran',
    'Page Turner',
    'Soroush',
    'سروش',
    'سروش ۲',
    'Soroush 2',
    'آیتا',
    'Ita',
    'بله',
    'Bale',
    'گپ',
    'Nima_2015',
    'Parsa 1395',
    'نیما ۱۳۹۵',
    'رها ۲۰۲۵',
    'علی ۱۲۳۴۵۶',
    'Ali 2 😀',
    'Sara (Zahra)',
  ])('%s', (name) => {
    expect(cleanDisplayName(name)).toBe(name);
  });
});

describe('cleanDisplayName: common first names pass', () => {
  const persian =
    'علی محمد حسین رضا مهدی امیرعلی ابوالفضل یاسین طاها عرفان آرین آراد پارسا سینا بردیا پرهام ماهان رادین آرسام ' +
    'فاطمه زینب مریم نازنین هستی ستایش آوا باران یسنا حلما ریحانه محدثه کوثر آیدا آیدین آیلین آیناز آیسان ایلیا ' +
    'ایمان آیتک بیتا ثمین یگانه سوگند نگین ترانه پریا الینا ملیکا مبینا تینا تارا غزل بهار آیه دلارام پرنیا سوفیا ' +
    'تلما تکتم دانیال سپهر کامران کامیار نوید شهاب وحید هادی جواد صادق';
  const latin =
    'Ali Mohammad Hossein Reza Mehdi Amir Yasin Taha Erfan Arian Kian Parsa Sina Nima Bardia Fatemeh Zahra Maryam ' +
    'Aida Aydin Ilia Iman Bita Tina Tara Ghazal Bahar Ava Rana Dana Elina Melika Mobina Hasti Setayesh Helma Kosar ' +
    'Sepehr Kamran Navid Danial Idris Gaby Wade Tom Ida Ivy Ian Ella Isla Emma Olivia Dominic Phoebe Fiona Payam Comfort Dottie';
  it.each([...persian.split(' '), ...latin.split(' ')])('%s', (name) => {
    expect(cleanDisplayName(name)).toBe(name);
  });
  it.each(['Pat. Me', 'Ali.R', 'Mr. In', 'Dr. Co'])('%s (initials and abbreviations that are not domains)', (name) => {
    expect(cleanDisplayName(name)).toBe(name);
  });
});

describe('cleanDisplayName: cleaning', () => {
  it.each([
    ['  علی   رضا  ', 'علی رضا'],
    ['Ali\tReza\n', 'Ali Reza'],
    ['Ali\u00a0\u2003Reza', 'Ali Reza'],
    ['\u200fعلی\u200f', 'علی'],
    ['\u202eSara\u202c', 'Sara'],
    ['Ali\u200bReza', 'AliReza'],
    ['\u200cعلی\u200c', 'علی'],
    ['علی\u200c\u200cرضا', 'علی\u200cرضا'],
    ['علی \u200cرضا', 'علی رضا'],
    ['Jose\u0301', 'Jos\u00e9'],
    ['\u0627\u0653\u06cc\u062a\u0627', '\u0622\u06cc\u062a\u0627'],
  ])('%j → %j', (raw, cleaned) => {
    expect(cleanDisplayName(raw)).toBe(cleaned);
  });

  it('keeps emoji sequences joined by ZWJ', () => {
    expect(cleanDisplayName('Sara 👩\u200d🚀')).toBe('Sara 👩\u200d🚀');
  });
});

describe('cleanDisplayName: length 1 to 30 after cleaning', () => {
  it('accepts 1 and 30 characters, Latin or Persian', () => {
    expect(cleanDisplayName('a')).toBe('a');
    expect(cleanDisplayName('a'.repeat(DISPLAY_NAME_MAX_LENGTH))).toHaveLength(30);
    expect(cleanDisplayName('ب'.repeat(30))).toHaveLength(30);
    expect(cleanDisplayName(`  ${'a'.repeat(30)}  `)).toHaveLength(30);
  });
  it.each(['', '   ', '\u200b', '\u200f\u200e', '\u200c', 'a'.repeat(31), 'ب'.repeat(31), `${'a'.repeat(15)} ${'b'.repeat(15)}`])(
    'refuses %j',
    (raw) => {
      expect(reasons(raw)).toEqual([expect.stringMatching(LENGTH)]);
    },
  );
});

describe('cleanDisplayName: phone numbers', () => {
  it.each([
    '09121234567',
    '9121234567',
    '1234567',
    '0912 123 4567',
    '۰۹۱۲-۱۲۳-۴۵۶۷',
    '09۱۲۱۲۳۴۵۶۷',
    '٠٩١٢١٢٣٤٥٦٧',
    '۰۹۱۲ ١٢٣ 4567',
    '+98 912 123 4567',
    '+989121234567',
    '0098-912-1234567',
    '(0912) 123.45.67',
    '0 9 1 2 1 2 3',
    'Ali 0912 123 4567',
    'علی ۰۹۱۲۱۲۳۴۵۶۷',
    'a1b2c3d4e5f6g7',
    'Sara 12 34 56 7',
    '９１２１２３４５６７',
    '①②③④⑤⑥⑦',
  ])('refuses %j', (raw) => {
    expect(reasons(raw)).toContainEqual(expect.stringMatching(PHONE));
  });

  it('accepts up to 6 digits', () => {
    expect(cleanDisplayName('Ali 123456')).toBe('Ali 123456');
    expect(cleanDisplayName('۱۲۳ ۴۵۶ سارا')).toBe('۱۲۳ ۴۵۶ سارا');
  });
});

describe('cleanDisplayName: links and domains', () => {
  it.each([
    'ali.com',
    'ALI.COM',
    'ali.ir',
    'ali.org',
    'ali.net',
    'ali.me',
    'ali.io',
    'علی.ir',
    'علی.ایران',
    'https://x',
    'http://ali',
    'http ali',
    'ali://x',
    'www.ali',
    'www ali',
    't.me/ali',
    'wa.me/98912',
    'T . me / ali',
    'bit.ly/x',
    'goo.gl',
    'ali . com',
    'ali .ir',
    'ali dot com',
    'ali dotcom',
    'ali (dot) ir',
    'ali [dot] net',
    'ali[.]com',
    'ali(.)ir',
    'ali。com',
    'ali٫ir',
    'ali．com',
    'علی نقطه کام',
    'علی دات کام',
    'علی دات آی آر',
    'علی نقطه ir',
  ])('refuses %j', (raw) => {
    expect(reasons(raw)).toContainEqual(expect.stringMatching(LINK));
  });
});

describe("cleanDisplayName: '@', handles and emails", () => {
  it.each(['@ali_kid', '@ali', 'ali@', 'ali @ kid', 'ali＠kid', 'ali﹫kid', 'ali@gmail.com', 'sara.m@yahoo'])('refuses %j', (raw) => {
    expect(reasons(raw)).toContainEqual(expect.stringMatching(AT));
  });

  it.each(['ali at gmail', 'Ali Gmail', 'Sara hotmail', 'yahoo sara', 'ایمیل علی', 'e-mail ali'])('refuses the email hint %j', (raw) => {
    expect(reasons(raw)).toContainEqual(expect.stringMatching(EMAIL));
  });
});

describe('cleanDisplayName: messaging and social apps', () => {
  it.each([
    'insta: ali',
    'Insta ali',
    'instaali',
    'instagram ali',
    'ali telegram',
    'Telegram',
    'whatsapp sara',
    'whats app sara',
    'eitaa sara',
    'rubika sara',
    'snapchat sara',
    'tik tok sara',
    'youtube sara',
    'تلگرام علی',
    'تلگرامی',
    'اینستاگرام: sara',
    'اینستا سارا',
    'واتساپ سارا',
    'واتس اپ سارا',
    'واتس\u200cاپ سارا',
    'روبیکا سارا',
    'یوتیوب سارا',
    'آیدی سارا',
    'آیدیم sara',
    'ایدی sara',
    'دایرکت بده',
    // creative spacing, styling and look-alikes
    't e l e g r a m',
    't.e.l.e.g.r.a.m',
    'ت ل گ ر ا م',
    'تلـــگرام',
    'تِلِگرام',
    'ТЕLEGRAM',
    'іnstagram',
    '𝐭𝐞𝐥𝐞𝐠𝐫𝐚𝐦',
    'ｉｎｓｔａ ali',
    'sara-whats-app',
    // words that are refused only before a handle-like token
    'بله: ali_kid',
    'bale ali_kid',
    'Bale: sara',
    'ایتا: سارا',
    'ایتا sara_1',
    'soroush ali_kid',
    'سروش ali.kid',
    'id: ali',
    'ID ali_kid',
    'ig_ali',
    'IG: sara',
    'tg: sara',
    'پیج: sara',
    'کانال sara_kids',
    'page => sara',
    'شماره: ۰۹۱۲',
  ])('refuses %j', (raw) => {
    expect(reasons(raw)).toContainEqual(expect.stringMatching(SOCIAL));
  });
});

describe('cleanDisplayName: several rules at once', () => {
  it('lists every rule the name breaks', () => {
    const all = reasons('@ali 09121234567 telegram');
    expect(all).toHaveLength(3);
    expect(all).toEqual(expect.arrayContaining([expect.stringMatching(AT), expect.stringMatching(PHONE), expect.stringMatching(SOCIAL)]));
    expect(reasons(`${'a'.repeat(30)} t.me`)).toEqual(expect.arrayContaining([expect.stringMatching(LENGTH), expect.stringMatching(LINK)]));
  });

  it('refuses rather than strips', () => {
    expect(() => cleanDisplayName('Sara 0912 123 4567')).toThrow(DomainError);
    expect(() => cleanDisplayName('Sara @sara')).toThrow(DomainError);
  });
});
