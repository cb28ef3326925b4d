/** Tehran-time calendar: day keys, day starts, week (leaderboard) keys (spec "Progress"; DESIGN §3). */

export { jalaliDate, jalaliDateTime } from './jalali';
export { addDays, daysBetween, lastDays, TEHRAN_OFFSET_MS, tehranDay, tehranDayStart, tehranWeekStart, weekKey } from './tehran';
