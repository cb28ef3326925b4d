/**
 * Tehran time for the date pickers, whatever the browser's time zone (DESIGN §9: what staff type is what they see
 * afterwards). MUI X's date-fns adapters (Jalali and Gregorian) work in the browser's local time only, so a picker is
 * handed the Tehran wall clock as a local `Date` (its local fields are Tehran's), and what it gives back is read the
 * same way. The conversions go through `@date-fns/tz` (the IANA zone `Asia/Tehran`, its past daylight saving
 * included).
 *
 * One limit of the approach: a Tehran time that does not exist in the browser's own zone (the hour its clocks skip
 * when daylight saving starts) moves by that hour. Staff browsers in Iran (no daylight saving since 2022) and in UTC
 * never meet it.
 */
import { TZDate } from '@date-fns/tz';

export const TEHRAN = 'Asia/Tehran';

/** An instant (ISO 8601, epoch ms or Date) as a local `Date` whose fields are Tehran's wall clock; null when none or invalid. */
export function toWallClock(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return null;
  const t = new TZDate(instant.getTime(), TEHRAN);
  return new Date(t.getFullYear(), t.getMonth(), t.getDate(), t.getHours(), t.getMinutes(), t.getSeconds());
}

/**
 * A picker's local `Date` read as Tehran's wall clock: the instant as ISO 8601 with Tehran's offset
 * (`2026-12-21T23:59:00.000+03:30`, which the API takes); null when none or invalid.
 */
export function fromWallClock(date: Date | null | undefined): string | null {
  if (!date || Number.isNaN(date.getTime())) return null;
  return new TZDate(
    date.getFullYear(),
    date.getMonth(),
    date.getDate(),
    date.getHours(),
    date.getMinutes(),
    date.getSeconds(),
    TEHRAN,
  ).toISOString();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A Tehran day `YYYY-MM-DD` (the API's day filters) as a local `Date` at its midnight; null when none or malformed. */
export function dayToWallClock(day: string | null | undefined): Date | null {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

/** A picker's local `Date` as the Tehran day `YYYY-MM-DD` it shows; null when none or invalid. */
export function wallClockToDay(date: Date | null | undefined): string | null {
  if (!date || Number.isNaN(date.getTime())) return null;
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Today's Tehran day `YYYY-MM-DD` at `now` (epoch ms). */
export function tehranDay(now: number = Date.now()): string {
  return wallClockToDay(toWallClock(now)) as string;
}
