/** Tehran-time calendar: day keys, day starts, week (leaderboard) keys (spec "Progress"; DESIGN §3). */

export { addDays, daysBetween, lastDays, TEHRAN_OFFSET_MS, tehranDay, tehranDayStart, tehranWeekStart, weekKey } from './tehran';
