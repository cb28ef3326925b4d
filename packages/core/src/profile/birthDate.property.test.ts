/**
 * Properties of Jalali birth dates (spec "User and profile"; providers.md §4): every Jalali date jalaali-js
 * accepts round-trips through its Gregorian date and is read back the same whatever digits (ASCII, Persian,
 * Arabic-Indic) and separator it is typed with; dates that do not exist are refused; the age counts Jalali
 * anniversaries on the Tehran day, so it grows by exactly one at each birthday's Tehran midnight.
 */
import { fc, test } from '@fast-check/vitest';
import { isLeapJalaaliYear, isValidJalaaliDate, jalaaliMonthLength, toGregorian, toJalaali } from 'jalaali-js';
import { describe, expect } from 'vitest';
import { DomainError } from '../errors';
import { MAX_AGE, MIN_AGE, parseJalaliDate, validateBirthDate } from './birthDate';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261123;
const numRuns = Number(process.env.FC_RUNS ?? 500);

const jalali = fc
  .record({ jy: fc.integer({ min: 1300, max: 1500 }), jm: fc.integer({ min: 1, max: 12 }), jd: fc.integer({ min: 1, max: 31 }) })
  .filter(({ jy, jm, jd }) => jd <= jalaaliMonthLength(jy, jm));
const digitSystem = fc.constantFrom('0123456789', '۰۱۲۳۴۵۶۷۸۹', '٠١٢٣٤٥٦٧٨٩');
const write = (n: number, width: number, digits: string) =>
  String(n)
    .padStart(width, '0')
    .replace(/\d/g, (d) => digits[Number(d)] as string);
/** The Tehran noon of a Gregorian date, epoch ms. */
const tehranNoon = (gy: number, gm: number, gd: number) => Date.UTC(gy, gm - 1, gd, 12 - 3.5);

describe('Jalali dates', () => {
  test.prop([jalali], { seed, numRuns })('round-trip through the Gregorian calendar', ({ jy, jm, jd }) => {
    const g = toGregorian(jy, jm, jd);
    expect(toJalaali(g.gy, g.gm, g.gd)).toEqual({ jy, jm, jd });
  });

  test.prop([jalali, digitSystem, fc.constantFrom('/', '-'), fc.boolean()], { seed, numRuns })(
    'are read back the same in any digits and separator',
    ({ jy, jm, jd }, digits, separator, padded) => {
      const text = `${write(jy, 4, digits)}${separator}${write(jm, padded ? 2 : 1, digits)}${separator}${write(jd, padded ? 2 : 1, digits)}`;
      expect(parseJalaliDate(` \u200f${text} `)).toEqual({ jy, jm, jd });
    },
  );

  test.prop([fc.integer({ min: 1300, max: 1500 }), fc.integer({ min: 1, max: 12 })], { seed, numRuns })(
    'refuse a day past the end of its month (Esfand 30 only in leap years)',
    (jy, jm) => {
      const length = jalaaliMonthLength(jy, jm);
      expect(length).toBe(jm <= 6 ? 31 : jm <= 11 ? 30 : isLeapJalaaliYear(jy) ? 30 : 29);
      expect(() => parseJalaliDate(`${jy}/${jm}/${length + 1}`)).toThrow(DomainError);
      expect(isValidJalaaliDate(jy, jm, length)).toBe(true);
    },
  );

  test.prop([jalali.filter(({ jy }) => jy <= 1400), fc.integer({ min: MIN_AGE, max: MAX_AGE })], { seed, numRuns })(
    'give an age that grows by one exactly on the Jalali birthday, in Tehran',
    (birth, age) => {
      // The birthday `age` years on; 30 Esfand falls on 1 Farvardin in a common year.
      const year = birth.jy + age;
      const [m, d] = birth.jd <= jalaaliMonthLength(year, birth.jm) ? [birth.jm, birth.jd] : [1, 1];
      const anniversary = m === 1 && d === 1 && birth.jm === 12 ? toGregorian(year + 1, 1, 1) : toGregorian(year, m, d);
      const text = `${birth.jy}/${birth.jm}/${birth.jd}`;
      const midnight = Date.UTC(anniversary.gy, anniversary.gm - 1, anniversary.gd) - 3.5 * 3_600_000;
      expect(validateBirthDate(text, midnight).age).toBe(age);
      if (age > MIN_AGE) expect(validateBirthDate(text, midnight - 1).age).toBe(age - 1);
      expect(validateBirthDate(text, tehranNoon(anniversary.gy, anniversary.gm, anniversary.gd)).birthYear).toBe(birth.jy);
    },
  );
});
