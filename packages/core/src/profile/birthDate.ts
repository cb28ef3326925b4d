/**
 * Jalali (Persian calendar) birth dates of the profile (spec "User and profile": birthDate is a Jalali date,
 * birthYear is derived from it; spec Limits: age from birthDate must be 5 to 99; DESIGN §3: the profile
 * PATCH takes `birthDate` as '1392/05/17').
 *
 * All Jalali arithmetic uses jalaali-js and nothing else: the calendar libraries disagree on some leap
 * years, so this code path never mixes them (providers.md §4, "Algorithms and known pitfalls"). Today's date
 * is the Tehran calendar day of the given instant (../calendar/tehran, fixed UTC+03:30).
 */
import { isValidJalaaliDate, toGregorian, toJalaali } from 'jalaali-js';
import { tehranDay } from '../calendar/tehran';
import { profileErrors } from './errors';

/** Youngest accepted age in whole years (spec Limits: "Age from birthDate 5 to 99"). */
export const MIN_AGE = 5;
/** Oldest accepted age in whole years (spec Limits). */
export const MAX_AGE = 99;

/** A Jalali calendar date; months and days are 1-based (1 = Farvardin), as in jalaali-js. */
export interface JalaliDate {
  jy: number;
  jm: number;
  jd: number;
}

/** A checked birth date, ready to store. */
export interface BirthDate {
  /** Normalized Jalali date, 'YYYY/MM/DD', ASCII digits, zero-padded (e.g. '1392/05/07'). */
  birthDate: string;
  /** Jalali year of birth (spec: birthYear is derived from birthDate). */
  birthYear: number;
  /** The same day in the Gregorian calendar, 'YYYY-MM-DD'. */
  gregorian: string;
  /** Age in whole years on the Tehran day of `nowMs`, counted by Jalali anniversaries; 5 to 99. */
  age: number;
}

/** Bidirectional marks that Persian keyboards and copy-paste put around dates; they carry no meaning here. */
const BIDI_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** 4-digit year, 1-2 digit month and day, one separator used twice ('/' or '-'). */
const DATE_PATTERN = /^(\d{4})([/-])(\d{1,2})\2(\d{1,2})$/;

const invalid = profileErrors.invalidBirthDate;

/** Persian (U+06F0-06F9) and Arabic-Indic (U+0660-0669) digits to ASCII. */
function toAsciiDigits(text: string): string {
  return text.replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0)).replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660));
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * Parses a Jalali date as typed by a user.
 *
 * Accepts 'YYYY/MM/DD' or 'YYYY-MM-DD' (the same separator twice), a 4-digit year and 1- or 2-digit month
 * and day, written with ASCII, Persian (۰-۹) or Arabic-Indic (٠-٩) digits, even mixed; surrounding
 * whitespace and bidi marks are ignored. The date must exist in the Jalali calendar as jalaali-js computes
 * it: months 1-6 have 31 days, 7-11 have 30, Esfand (12) has 29, or 30 in a leap year (providers.md §4):
 * '1403/12/30' is valid, '1394/12/30' is not.
 *
 * @returns `{ jy, jm, jd }`, 1-based month and day.
 * @throws DomainError `validation_error` with `fields.birthDate` on a bad format or a date that does not exist.
 */
export function parseJalaliDate(text: string): JalaliDate {
  if (typeof text !== 'string') throw invalid('birthDate must be a Jalali date written as YYYY/MM/DD');
  const match = DATE_PATTERN.exec(toAsciiDigits(text.replace(BIDI_MARKS, '').trim()));
  if (!match) throw invalid('birthDate must be a Jalali date written as YYYY/MM/DD');
  const jy = Number(match[1]);
  const jm = Number(match[3]);
  const jd = Number(match[4]);
  if (!isValidJalaaliDate(jy, jm, jd)) throw invalid(`birthDate ${pad(jy, 4)}/${pad(jm, 2)}/${pad(jd, 2)} is not a real Jalali date`);
  return { jy, jm, jd };
}

/** Whole years from `birth` to `today`: the Jalali year difference, minus one before the Jalali anniversary. */
function ageOn(birth: JalaliDate, today: JalaliDate): number {
  const beforeAnniversary = today.jm < birth.jm || (today.jm === birth.jm && today.jd < birth.jd);
  return today.jy - birth.jy - (beforeAnniversary ? 1 : 0);
}

/**
 * Checks a profile birth date and derives the stored fields.
 *
 * Age rule (spec Limits): the learner must be 5 to 99 years old ({@link MIN_AGE}..{@link MAX_AGE}
 * inclusive) on the Tehran calendar day of `nowMs`. Age is counted in the Jalali calendar: whole Jalali
 * years, the birthday being reached on the same Jalali month and day (so 5 is reached exactly on the 5th
 * Jalali birthday, 100 exactly on the 100th). Someone born on 30 Esfand of a leap year reaches the next age
 * on 1 Farvardin in common years. Jalali rather than Gregorian because the date is entered and celebrated in
 * Jalali; the two anniversaries can fall a day apart.
 *
 * @param text the date as typed, see {@link parseJalaliDate}.
 * @param nowMs the current instant, epoch milliseconds (from the Clock).
 * @returns the normalized date, Jalali birth year, Gregorian date and age, see {@link BirthDate}.
 * @throws DomainError `validation_error` with `fields.birthDate` on a bad format or non-existent date, a date
 *   after today (Tehran), or an age outside 5..99.
 * @throws RangeError if `nowMs` is not a finite instant.
 */
export function validateBirthDate(text: string, nowMs: number): BirthDate {
  const birth = parseJalaliDate(text);
  const [gy, gm, gd] = tehranDay(nowMs).split('-').map(Number) as [number, number, number];
  const today = toJalaali(gy, gm, gd);
  const birthDate = `${pad(birth.jy, 4)}/${pad(birth.jm, 2)}/${pad(birth.jd, 2)}`;
  const todayText = `${pad(today.jy, 4)}/${pad(today.jm, 2)}/${pad(today.jd, 2)}`;
  if (birthDate > todayText) throw invalid(`birthDate ${birthDate} is in the future (today in Tehran is ${todayText})`);
  const age = ageOn(birth, today);
  if (age < MIN_AGE || age > MAX_AGE) {
    throw invalid(`age must be between ${MIN_AGE} and ${MAX_AGE} years; birthDate ${birthDate} gives age ${age}`);
  }
  const g = toGregorian(birth.jy, birth.jm, birth.jd);
  return { birthDate, birthYear: birth.jy, gregorian: `${pad(g.gy, 4)}-${pad(g.gm, 2)}-${pad(g.gd, 2)}`, age };
}
