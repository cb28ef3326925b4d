/** The routes of endpoint group `tutor` (`packages/functions/src/groups/tutor.ts`). */
import type { RouteSpec } from './types';

export const tutorRoutes: readonly RouteSpec[] = [
  {
    method: 'POST',
    path: '/api/ai/ask',
    group: 'tutor',
    auth: 'user',
    throttle: 'ai_ask',
    stream: true,
    summary: 'Ask the math tutor; the plain-text answer is streamed as the model writes it.',
  },
];
