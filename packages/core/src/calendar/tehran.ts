/**
 * Tehran-time calendar helpers: day keys, day starts, week keys (spec "Progress": one streak entry per
 * calendar day in Tehran time; DESIGN §3: weekly leaderboard weeks run Saturday 00:00 to Friday 24:00,
 * Tehran time).
 *
 * Tehran time is computed with the FIXED offset UTC+03:30 ({@link TEHRAN_OFFSET_MS}), never with `Intl` /
 * `Asia/Tehran` time-zone data: Iran abolished daylight saving time in 2022 (tzdata 2022b), and hosts or
 * runtimes with older tzdata/ICU still jump to +04:30 in summer (providers.md §4, "Day boundaries"). A fixed
 * offset gives the same answer on every host. Consequence: for instants before the last DST period ended
 * (September 2022) these helpers give Iran *standard* time, which is fine for keys derived from "now".
 *
 * Conventions:
 * - Instants are epoch milliseconds (`number`, as returned by `Clock.now()`).
 * - A day is a string `'YYYY-MM-DD'`: the proleptic Gregorian date in Tehran, zero-padded, so day keys sort
 *   lexicographically in time order. Jalali dates are a display concern and are not used here.
 * - Bad arguments (non-finite instants, malformed day strings, non-integer counts) are programmer errors and
 *   throw `RangeError`, not `DomainError`.
 * - Nothing here reads the process time zone; all `Date` use is through the UTC accessors.
 */

/** Tehran's offset from UTC in milliseconds: +03:30 = 12 600 000 ms (no DST since 2022). */
export const TEHRAN_OFFSET_MS = 12_600_000;

/** One calendar day in milliseconds (Tehran has no DST, so every Tehran day is exactly this long). */
const DAY_MS = 86_400_000;

/** `Date.getUTCDay()` value of Saturday, the first day of the Iranian week. */
const SATURDAY = 6;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' of the UTC calendar date of `ms` (callers pass an already offset instant). */
function formatUtcDate(ms: number): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) throw new RangeError(`instant out of range for a day key: ${ms}`);
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Epoch ms of UTC midnight of a 'YYYY-MM-DD' day; the day arithmetic below works on these values. */
function parseDay(day: string): number {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new RangeError(`not a 'YYYY-MM-DD' day: ${JSON.stringify(day)}`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const date = Number(match[3]);
  // setUTCFullYear (unlike Date.UTC) keeps years 0-99 as written; the round trip rejects e.g. 2025-02-30.
  const ms = new Date(0).setUTCFullYear(year, month - 1, date);
  if (formatUtcDate(ms) !== day) throw new RangeError(`not a real calendar day: ${day}`);
  return ms;
}

function assertInstant(ms: number): void {
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant in epoch milliseconds: ${ms}`);
}

function assertInteger(n: number, what: string): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} must be an integer, got ${n}`);
}

/**
 * The Tehran calendar day of an instant.
 *
 * @param ms instant, epoch milliseconds.
 * @returns the Gregorian date in Tehran as 'YYYY-MM-DD' (a sortable day key, e.g. for the streak record).
 *   The day changes at 20:30:00.000 UTC: `tehranDay(Date.UTC(2025, 2, 20, 20, 29, 59, 999))` is
 *   '2025-03-20' and `tehranDay(Date.UTC(2025, 2, 20, 20, 30))` is '2025-03-21'.
 * @throws RangeError if `ms` is not finite or falls outside years 0000-9999.
 */
export function tehranDay(ms: number): string {
  assertInstant(ms);
  return formatUtcDate(ms + TEHRAN_OFFSET_MS);
}

/**
 * The start of the Tehran day containing an instant.
 *
 * @param ms instant, epoch milliseconds.
 * @returns epoch milliseconds of 00:00:00.000 Tehran time (= 20:30 UTC of the previous UTC date) of the day
 *   containing `ms`; `tehranDayStart(ms) <= ms < tehranDayStart(ms) + 86 400 000`.
 * @throws RangeError if `ms` is not finite.
 */
export function tehranDayStart(ms: number): number {
  assertInstant(ms);
  return Math.floor((ms + TEHRAN_OFFSET_MS) / DAY_MS) * DAY_MS - TEHRAN_OFFSET_MS;
}

/**
 * Calendar arithmetic on day keys.
 *
 * @param day a real day, 'YYYY-MM-DD'.
 * @param n whole days to add (may be negative or zero).
 * @returns the day `n` days after `day`, 'YYYY-MM-DD' (crosses month, year and Feb-29 ends correctly).
 * @throws RangeError if `day` is malformed or not a real date, or `n` is not an integer.
 */
export function addDays(day: string, n: number): string {
  assertInteger(n, 'n');
  return formatUtcDate(parseDay(day) + n * DAY_MS);
}

/**
 * Whole days from `a` to `b`.
 *
 * @param a a real day, 'YYYY-MM-DD'.
 * @param b a real day, 'YYYY-MM-DD'.
 * @returns `b − a` in days: positive when `b` is later, 0 for the same day, negative when `b` is earlier.
 *   `addDays(a, daysBetween(a, b)) === b`.
 * @throws RangeError if either day is malformed or not a real date.
 */
export function daysBetween(a: string, b: string): number {
  return Math.round((parseDay(b) - parseDay(a)) / DAY_MS);
}

/**
 * The first day of the Tehran week containing an instant. Weeks run Saturday 00:00 to Friday 24:00 Tehran
 * time (DESIGN §3; providers.md §4: the Iranian week starts on Saturday).
 *
 * @param ms instant, epoch milliseconds.
 * @returns the Saturday that starts the week, 'YYYY-MM-DD'. Friday 23:59:59.999 Tehran still belongs to the
 *   week that started six days earlier; Saturday 00:00:00.000 Tehran starts a new week.
 * @throws RangeError if `ms` is not finite or falls outside years 0000-9999.
 */
export function tehranWeekStart(ms: number): string {
  const day = tehranDay(ms);
  const weekday = new Date(parseDay(day)).getUTCDay();
  const sinceSaturday = (weekday - SATURDAY + 7) % 7;
  return addDays(day, -sinceSaturday);
}

/**
 * The weekly leaderboard partition key of an instant: the same value as {@link tehranWeekStart}, the
 * Saturday ('YYYY-MM-DD') starting the Tehran week (DESIGN §3, spec "Progress": leaderboard periods).
 * All XP earned from Saturday 00:00 to Friday 24:00 Tehran time shares one key; keys sort in time order.
 *
 * @param ms instant, epoch milliseconds.
 * @throws RangeError as {@link tehranWeekStart}.
 */
export function weekKey(ms: number): string {
  return tehranWeekStart(ms);
}

/**
 * The last `n` Tehran days up to and including the day of an instant (e.g. the 7 days of a weekly report
 * or a streak strip).
 *
 * @param ms instant, epoch milliseconds.
 * @param n number of days, a non-negative integer.
 * @returns `n` day keys 'YYYY-MM-DD', oldest first, the last one being `tehranDay(ms)`; `[]` when `n` is 0.
 * @throws RangeError if `ms` is not finite or `n` is not a non-negative integer.
 */
export function lastDays(ms: number, n: number): string[] {
  assertInteger(n, 'n');
  if (n < 0) throw new RangeError(`n must not be negative, got ${n}`);
  const today = tehranDay(ms);
  return Array.from({ length: n }, (_, i) => addDays(today, i - (n - 1)));
}
