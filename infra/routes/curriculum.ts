/** The routes of endpoint group `curriculum` (`packages/functions/src/groups/curriculum.ts`). */
import type { RouteSpec } from './types';

export const curriculumRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/curriculum/grades',
    group: 'curriculum',
    auth: 'none',
    throttle: 'curriculum_grades',
    summary: 'Grades of the question bank.',
  },
  {
    method: 'GET',
    path: '/api/curriculum/grades/{id}',
    group: 'curriculum',
    auth: 'none',
    throttle: 'curriculum_grade',
    summary: 'A grade with its units, nodes and lessons.',
  },
  {
    method: 'GET',
    path: '/api/nodes/{id}/questions',
    group: 'curriculum',
    auth: 'none',
    throttle: 'node_questions',
    summary: "A node's questions, without answer keys.",
  },
  {
    method: 'GET',
    path: '/api/lessons/{id}/questions',
    group: 'curriculum',
    auth: 'none',
    throttle: 'lesson_questions',
    summary: "A lesson's questions, without answer keys.",
  },
  {
    method: 'GET',
    path: '/api/intro',
    group: 'curriculum',
    auth: 'none',
    throttle: 'intro',
    summary: 'Onboarding screens of the app.',
  },
];
