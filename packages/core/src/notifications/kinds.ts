/**
 * The kinds of notification, when each is created and its `data` (issue 3 §8):
 *
 * | kind               | created                                                          | data                          |
 * |--------------------|------------------------------------------------------------------|-------------------------------|
 * | `island_completed` | in the transaction that completes a node (island) the first time  | `{ nodeId, title, stars, xp }` |
 * | `streak_milestone` | in the write that extends the streak to 3, 7, 14, 30, 60, 100, 200 or 365 days, or earns a streak freeze (every 7 days) | `{ days, freezeEarned? }` |
 * | `streak_frozen`    | in the write that uses a streak freeze for a Tehran day without activity (the next activity or the nightly job; DESIGN §13), one per freeze | `{ day, freezesLeft }` |
 * | `heart_refilled`   | the learner ran out of hearts (enforced) and at least one came back; created lazily on the next read of the list, dated when the heart came back | `{ hearts }` |
 * | `staff_message`    | staff sent it to this learner or to everyone (`POST /api/admin/notifications`, staff.ts) | `{ title, body }` |
 */
export const NOTIFICATION_KINDS = ['island_completed', 'streak_milestone', 'streak_frozen', 'heart_refilled', 'staff_message'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Streak lengths (days) that earn a `streak_milestone` notification. */
export const STREAK_MILESTONES: readonly number[] = [3, 7, 14, 30, 60, 100, 200, 365];

/** Whether a streak of `days` earns a milestone notification. */
export const isStreakMilestone = (days: number): boolean => STREAK_MILESTONES.includes(days);

const titles: Record<NotificationKind, (data: Record<string, unknown>) => string> = {
  island_completed: (d) => `جزیره «${String(d.title)}» را تمام کردی!`,
  streak_milestone: (d) => `${String(d.days)} روز پشت سر هم تمرین کردی!${d.freezeEarned ? ' یک یخ‌زدگی رشته هم گرفتی.' : ''}`,
  streak_frozen: () => 'یک روز تمرین نکردی؛ یک یخ‌زدگی رشتهٔ روزهایت را نگه داشت.',
  heart_refilled: () => 'یک قلب برگشت؛ می‌توانی دوباره تمرین کنی.',
  staff_message: (d) => String(d.title),
};

/** The short Persian text shown for a notification of `kind` with `data`; `kind` and `data` let the app render its own. */
export const titleOf = (kind: NotificationKind, data: Record<string, unknown>): string => titles[kind](data);
