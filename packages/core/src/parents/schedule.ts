/**
 * When the parent's weekly report is sent (DESIGN §13: Friday 18:00 Tehran). A Tehran week runs Saturday 00:00 to
 * Friday 24:00 (DESIGN §3); its report is due at its Friday {@link REPORT_HOUR}:00 and sent within the next
 * {@link SEND_WINDOW_HOURS} hours (the job runs every 15 minutes through the window, so a run that stopped at its
 * deadline, or a provider that was down, is caught up in the evening). Outside the window no report is sent: a
 * report is never sent late into the night or days later about a past week. Asia/Tehran has been UTC+03:30 all
 * year since 2022 (no daylight saving), so the window is a fixed UTC time: Friday 14:30 to 18:30.
 */
import { addDays, tehranWeekStart } from '../calendar/tehran';

export const REPORT_HOUR = 18;
export const SEND_WINDOW_HOURS = 4;

/** Epoch ms of Friday {@link REPORT_HOUR}:00 Tehran of the week starting Saturday `week` (YYYY-MM-DD). */
export const reportDueAt = (week: string): number => Date.parse(`${addDays(week, 6)}T${String(REPORT_HOUR).padStart(2, '0')}:00:00+03:30`);

/** The week (its Saturday) whose reports are sent at `nowMs`, or undefined outside every sending window. */
export function reportWeekAt(nowMs: number): string | undefined {
  const week = tehranWeekStart(nowMs);
  const due = reportDueAt(week);
  return nowMs >= due && nowMs < due + SEND_WINDOW_HOURS * 3_600_000 ? week : undefined;
}
