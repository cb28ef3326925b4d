import { describe, expect, it } from 'vitest';
import { screenSafety } from './safety';
import { screenRequest } from './screen';

const screen = (q: string) => screenSafety(q, '[X]');

describe('screenSafety', () => {
  it.each([
    'I want to die',
    'i wanna die',
    'sometimes I think about suicide',
    'I want to hurt myself',
    'I don’t want to live anymore',
    'می‌خوام بمیرم',
    'ميخوام بميرم',
    'به خودکشی فکر می‌کنم',
    'دوست دارم خودمو بکشم',
    'I want to die, what is 3/4 + 1/8',
  ])('finds self-harm in %j', (q) => {
    expect(screen(q).category).toBe('self_harm');
  });

  it.each([
    'my dad hits me when I get a bad mark',
    'someone touched me and I am scared',
    'I am being bullied at school',
    'I don’t feel safe at home',
    'بابام منو میزنه',
    'داداشم کتکم میزنه',
    'یه نفر بهم دست میزنه',
    'تو خونه امنیت ندارم',
  ])('finds abuse in %j', (q) => {
    expect(screen(q).category).toBe('abuse');
  });

  it.each([
    'This homework is killing me, how do I divide 12 by 4?',
    'how many times does the clock hit 12?',
    'عدد «شش میلیارد و بیست میلیون» ۶۰۲۰۰۰۰۰۰۰ است؟',
    'حاصل ۱۲۰۰۰۰۰ + ۳ چند است؟',
    // Word problems about streets and alleys measure them; they name no address.
    'خیابان ۱۲۰ متر و کوچه ۴۵ متر است، چقدر بلندتر است؟',
    'طول خیابان اصلی ۹۰۰ متر و طول کوچه ۲۵۰ متر است. اختلاف طول آن‌ها چقدر است؟',
    'در این کوچه ۸ خانه هست. در کوچه بعدی ۶ خانه هست. روی هم چند خانه است؟',
    'A 120 meter long road and a 45 meter alley: how much longer is the road?',
    'Sara walked 300 meters along the avenue, then 250 more. How far did she walk?',
    'There are 3 houses on the street and each has 4 windows. How many windows?',
  ])('lets %j pass untouched', (q) => {
    expect(screen(q)).toEqual({ personal: [], redacted: q });
  });

  it.each([
    ['my number is 09121234567 call me', 'phone', 'my number is [X] call me'],
    ['شمارم ۰۹۱۲ ۱۲۳ ۴۵۶۷ هست', 'phone', 'شمارم [X] هست'],
    ['+98 912 123 4567', 'phone', '[X]'],
    ['تلفن خونه ۰۲۱-۸۸۸۸۷۷۷۷', 'phone', 'تلفن خونه [X]'],
    ['email me at sara.k@example.com', 'email', 'email me at [X]'],
    ['کد ملی من ۰۱۲۳۴۵۶۷۸۹ است', 'national_id', 'کد ملی من [X] است'],
    ['1234567891', 'national_id', '[X]'],
    ['کد پستی ۱۲۳۴۵-۶۷۸۹۰', 'postal_code', '[X]'],
    ['آدرسم خیابان آزادی کوچه ۵ پلاک ۱۲ است. ۳+۴ چند میشه؟', 'address', 'آدرسم [X]. ۳+۴ چند میشه؟'],
    ['I live at 12 Baker Street. what is 5+5', 'address', 'I live at [X]. what is 5+5'],
    ['خیابان ولیعصر، کوچه نسترن، پلاک ۱۲. ۵+۵ چند میشه؟', 'address', '[X]. ۵+۵ چند میشه؟'],
    ['come to 221B Baker Street. what is 7 times 8?', 'address', 'come to [X]. what is 7 times 8?'],
  ])('finds and redacts personal data in %j', (q, kind, redacted) => {
    const s = screen(q);
    expect(s.personal).toContain(kind);
    expect(s.category).toBeUndefined();
    expect(s.redacted.includes('[X]')).toBe(true);
    if (!['phone', 'national_id', 'postal_code'].includes(kind) || redacted !== '[X]') expect(s.redacted).toBe(redacted);
  });
});

describe('screenRequest', () => {
  it('asks the redacted question when it is math, and gives the personal-data message when it is not', () => {
    expect(screenRequest('my phone is 09121234567, what is 3/4 + 1/8?', 'book')).toEqual({
      kind: 'ask',
      question: 'my phone is [personal information removed], what is 3/4 + 1/8?',
      personal: ['phone'],
      reason: 'structure',
    });
    expect(screenRequest('شماره من ۰۹۱۲۱۲۳۴۵۶۷ هست بهم زنگ بزن', 'book')).toEqual({
      kind: 'personal_data',
      category: 'personal_data',
      personal: ['phone'],
    });
  });

  it('puts self-harm before abuse, abuse before personal data, and all of them before the topic', () => {
    expect(screenRequest('I want to die, my dad hits me, 09121234567', 'book').kind).toBe('help_line');
    expect(screenRequest('my dad hits me, 09121234567, what is 2+2', 'book').kind).toBe('abuse_help');
    expect(screenRequest('tell me a story', 'book')).toEqual({ kind: 'off_topic', category: 'off_topic', reason: 'creative' });
  });
});
