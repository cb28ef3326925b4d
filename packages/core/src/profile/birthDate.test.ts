import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { MAX_AGE, MIN_AGE, parseJalaliDate, validateBirthDate } from './birthDate';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms);
/** 00:00 Tehran of a Gregorian day = 20:30 UTC the day before. */
const tehranMidnight = (y: number, mo: number, d: number) => utc(y, mo, d) - 3.5 * 3_600_000;

/** The DomainError thrown by `fn`, or a failure. */
function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

describe('parseJalaliDate', () => {
  it.each([
    ['1392/05/17', 1392, 5, 17],
    ['1392-05-17', 1392, 5, 17],
    ['1392/5/7', 1392, 5, 7],
    ['1392-5-07', 1392, 5, 7],
    ['۱۳۹۲/۰۵/۱۷', 1392, 5, 17],
    ['١٣٩٢/٠٥/١٧', 1392, 5, 17],
    ['۱۳۹۲-٥-17', 1392, 5, 17],
    ['  1392/05/17 ', 1392, 5, 17],
    ['\u200f۱۳۹۲/۰۵/۱۷\u200f', 1392, 5, 17],
    ['1403/12/30', 1403, 12, 30],
    ['1395/12/30', 1395, 12, 30],
    ['1408/12/30', 1408, 12, 30],
    ['1392/06/31', 1392, 6, 31],
    ['1392/01/31', 1392, 1, 31],
    ['1392/07/30', 1392, 7, 30],
    ['1392/11/30', 1392, 11, 30],
    ['1394/12/29', 1394, 12, 29],
  ])('%s → %i/%i/%i', (text, jy, jm, jd) => {
    expect(parseJalaliDate(text)).toEqual({ jy, jm, jd });
  });

  it.each([
    '',
    '   ',
    '1392/05',
    '92/05/17',
    '01392/05/17',
    '1392/005/17',
    '1392/05/017',
    '1392.05.17',
    '1392/05-17',
    '13920517',
    '1392 05 17',
    '1392/05/17/1',
    'abc',
    '۱۳۹۲/۰۵/۱۷x',
  ])('refuses the format %j', (text) => {
    const error = refusal(() => parseJalaliDate(text));
    expect(error.code).toBe('validation_error');
    expect(error.extra.fields?.birthDate).toHaveLength(1);
  });

  it.each([
    ['1394/12/30', '1394 is a common year'],
    ['1404/12/30', '1404 is a common year'],
    ['1392/07/31', 'months 7-11 have 30 days'],
    ['1392/11/31', 'months 7-11 have 30 days'],
    ['1392/06/32', 'months 1-6 have 31 days'],
    ['1392/13/01', 'there are 12 months'],
    ['1392/00/10', 'months start at 1'],
    ['1392/01/00', 'days start at 1'],
    ['۱۳۹۴/۱۲/۳۰', 'Persian digits, 1394 common'],
  ])('refuses %s (%s)', (text) => {
    const error = refusal(() => parseJalaliDate(text));
    expect(error.code).toBe('validation_error');
    expect(error.extra.fields?.birthDate?.[0]).toMatch(/not a real Jalali date/);
  });
});

describe('validateBirthDate', () => {
  const now = utc(2035, 6, 1, 12); // 1414/03/11 in Tehran

  it.each([
    // providers.md §4 test vectors
    ['1404/01/01', '1404/01/01', 1404, '2025-03-21', 10],
    ['1403/12/30', '1403/12/30', 1403, '2025-03-20', 10],
    ['1395/01/23', '1395/01/23', 1395, '2016-04-11', 19],
    // normalization
    ['۱۳۹۲/۵/۷', '1392/05/07', 1392, '2013-07-29', 21],
    ['١٣٩٢-٠٥-١٧', '1392/05/17', 1392, '2013-08-08', 21],
  ])('%s → %s, birthYear %i, %s, age %i', (text, birthDate, birthYear, gregorian, age) => {
    expect(validateBirthDate(text, now)).toEqual({ birthDate, birthYear, gregorian, age });
  });

  it('refuses a date that does not exist before looking at the age', () => {
    const error = refusal(() => validateBirthDate('1394/12/30', now));
    expect(error.extra.fields?.birthDate?.[0]).toMatch(/not a real Jalali date/);
  });

  describe('age boundaries, exactly on the Jalali birthday at Tehran midnight', () => {
    // 1404/05/10 = 2025-08-01; it starts at 2025-07-31 20:30 UTC.
    const birthday = tehranMidnight(2025, 8, 1);

    it(`accepts age ${MIN_AGE} on the 5th birthday and refuses the day before`, () => {
      expect(validateBirthDate('1399/05/10', birthday).age).toBe(5);
      const error = refusal(() => validateBirthDate('1399/05/10', birthday - 1));
      expect(error.code).toBe('validation_error');
      expect(error.extra.fields?.birthDate?.[0]).toBe('age must be between 5 and 99 years; birthDate 1399/05/10 gives age 4');
    });

    it(`accepts age ${MAX_AGE} and refuses 100 from the 100th birthday on`, () => {
      expect(validateBirthDate('1305/05/10', birthday).age).toBe(99);
      expect(validateBirthDate('1304/05/10', birthday - 1).age).toBe(99);
      const error = refusal(() => validateBirthDate('1304/05/10', birthday));
      expect(error.extra.fields?.birthDate?.[0]).toMatch(/between 5 and 99 years.*age 100/);
    });

    it('counts by the Jalali anniversary, not the Gregorian one', () => {
      // 1305/05/10 is 1926-08-02: by Gregorian dates the person would still be 98 on 2025-08-01.
      expect(validateBirthDate('1305/05/10', birthday)).toMatchObject({ gregorian: '1926-08-02', age: 99 });
    });
  });

  it('lets a 30 Esfand birthday come on 1 Farvardin in common years', () => {
    // 1395 and 1399 are leap; 1404 is not. 1404/12/29 = 2026-03-20, 1405/01/01 = 2026-03-21.
    const lastDayOf1404 = tehranMidnight(2026, 3, 20);
    const firstDayOf1405 = tehranMidnight(2026, 3, 21);
    expect(validateBirthDate('1395/12/29', lastDayOf1404).age).toBe(9);
    expect(validateBirthDate('1395/12/30', lastDayOf1404).age).toBe(8);
    expect(validateBirthDate('1395/12/30', firstDayOf1405).age).toBe(9);
    expect(() => validateBirthDate('1399/12/30', firstDayOf1405 - 1)).toThrow(/gives age 4/);
    expect(validateBirthDate('1399/12/30', firstDayOf1405)).toMatchObject({ gregorian: '2021-03-20', age: 5 });
  });

  it('refuses dates in the future, judged by the Tehran day', () => {
    const tomorrow = refusal(() => validateBirthDate('1414/03/12', now));
    expect(tomorrow.code).toBe('validation_error');
    expect(tomorrow.extra.fields?.birthDate?.[0]).toMatch(/in the future/);
    expect(refusal(() => validateBirthDate('1500/01/01', now)).detail).toMatch(/in the future/);
    // Today is not in the future, but gives age 0.
    expect(refusal(() => validateBirthDate('1414/03/11', now)).detail).toMatch(/age 0/);
    // 20:30 UTC on 2035-06-01 is already 1414/03/12 in Tehran.
    expect(refusal(() => validateBirthDate('1414/03/12', utc(2035, 6, 1, 20, 30))).detail).toMatch(/age 0/);
  });
});
