/**
 * Jalali (Solar Hijri) renderings of Tehran times, for what staff read outside the panel (CSV exports, chart
 * labels; issue 25): the panel itself renders Jalali dates from ISO times. Arithmetic is jalaali-js's (as the
 * profile's birth dates, profile/birthDate.ts); Tehran time is the fixed +03:30 of tehran.ts.
 */
import { toJalaali } from 'jalaali-js';
import { TEHRAN_OFFSET_MS, tehranDay } from './tehran';

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * The Jalali date of a Tehran day.
 *
 * @param day a real day, 'YYYY-MM-DD' (Gregorian, as the day keys).
 * @returns 'YYYY/MM/DD' in the Jalali calendar, e.g. '2026-11-20' → '1405/08/29'.
 * @throws RangeError if `day` is malformed.
 */
export function jalaliDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new RangeError(`day must be YYYY-MM-DD, got ${day}`);
  const { jy, jm, jd } = toJalaali(Number(match[1]), Number(match[2]), Number(match[3]));
  return `${jy}/${two(jm)}/${two(jd)}`;
}

/**
 * The Jalali date and Tehran wall-clock time of an instant.
 *
 * @param ms instant, epoch milliseconds.
 * @returns 'YYYY/MM/DD HH:mm:ss' (Jalali date, Tehran time, 24-hour), e.g. 2026-11-20T08:00:00Z → '1405/08/29 11:30:00'.
 */
export function jalaliDateTime(ms: number): string {
  const tehran = new Date(ms + TEHRAN_OFFSET_MS);
  const time = `${two(tehran.getUTCHours())}:${two(tehran.getUTCMinutes())}:${two(tehran.getUTCSeconds())}`;
  return `${jalaliDate(tehranDay(ms))} ${time}`;
}
