/** The routes of endpoint group `ai` (`packages/functions/src/groups/ai.ts`). */
import type { RouteSpec } from './types';

export const aiRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/ai/history',
    group: 'ai',
    auth: 'user',
    throttle: 'ai_history',
    summary: 'The caller’s tutor messages, newest first.',
  },
  {
    method: 'POST',
    path: '/api/ai/feedback',
    group: 'ai',
    auth: 'user',
    throttle: 'ai_feedback',
    summary: 'Rate one of the tutor’s answers to the caller (up or down, optional comment).',
  },
];
