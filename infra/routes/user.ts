/** The routes of endpoint group `user` (`packages/functions/src/groups/user.ts`). */
import type { RouteSpec } from './types';

export const userRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/hearts',
    group: 'user',
    auth: 'user',
    throttle: 'hearts',
    summary: 'Hearts now, the maximum, whether they are enforced, and when the next one comes back.',
  },
  {
    method: 'GET',
    path: '/api/user/summary',
    group: 'user',
    auth: 'user',
    throttle: 'summary',
    summary: 'XP, stars, streak, hearts, completed islands, the active plan’s name.',
  },
  {
    method: 'GET',
    path: '/api/user/profile',
    group: 'user',
    auth: 'user',
    throttle: 'profile_read',
    summary: 'The learner’s profile.',
  },
  {
    method: 'PATCH',
    path: '/api/user/profile',
    group: 'user',
    auth: 'user',
    throttle: 'profile_update',
    summary: 'Change display name, Jalali birth date or grade.',
  },
  {
    method: 'GET',
    path: '/api/user/weekly-report',
    group: 'user',
    auth: 'user',
    throttle: 'weekly_report',
    summary: 'The last 7 Tehran days next to the 7 before: minutes, questions, accuracy, islands, tutor questions.',
  },
  {
    method: 'POST',
    path: '/api/user/delete',
    group: 'user',
    auth: 'user',
    throttle: 'account_delete',
    summary: 'Delete the account after a fresh sign-in code; payment records are kept.',
  },
];
