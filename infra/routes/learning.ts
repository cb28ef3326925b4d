/** The routes of endpoint group `learning` (`packages/functions/src/groups/learning.ts`). */
import type { RouteSpec } from './types';

export const learningRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/home',
    group: 'learning',
    auth: 'user',
    throttle: 'home',
    summary: 'The map of the learner’s grade with locked/completed state per node.',
  },
  {
    method: 'GET',
    path: '/api/progress/nodes',
    group: 'learning',
    auth: 'user',
    throttle: 'node_progress',
    summary: 'The caller’s node progress.',
  },
  {
    method: 'POST',
    path: '/api/questions/{id}/answer',
    group: 'learning',
    auth: 'user',
    throttle: 'answer',
    summary: 'Answer a question; checked and recorded on the server.',
  },
  {
    method: 'POST',
    path: '/api/nodes/{id}/quiz/complete',
    group: 'learning',
    auth: 'user',
    throttle: 'node_complete',
    summary: 'Complete a node from its recorded answers.',
  },
  {
    method: 'POST',
    path: '/api/lessons/{id}/complete',
    group: 'learning',
    auth: 'user',
    throttle: 'lesson_complete',
    summary: 'Complete a lesson from its recorded answers.',
  },
  // Learning that brings children back (DESIGN §13): the mistakes review.
  {
    method: 'GET',
    path: '/api/review',
    group: 'learning',
    auth: 'user',
    throttle: 'review',
    summary: 'The caller’s mistakes review: how many questions are due, and up to 20 of them, due first (Leitner boxes).',
  },
  {
    method: 'POST',
    path: '/api/review/{id}/answer',
    group: 'learning',
    auth: 'user',
    throttle: 'review_answer',
    summary: 'Answer a question of the mistakes review: right moves it up a box, wrong back to box 1; 2 XP a right answer.',
  },
];
