/** Endpoint group `curriculum`: the public question bank (DESIGN §3) and the intro; no login, never an answer key. */
import { gradeDetail, lessonQuestions, listGrades, nodeQuestions } from '@mathisland/core/curriculum/index';
import { introSlides } from '@mathisland/core/curriculum/intro';
import { defineGroup, route } from '../lib/group';

export const { handler, routes } = defineGroup('curriculum', {
  'GET /api/curriculum/grades': route({ run: async ({ deps }) => ({ items: await listGrades(deps) }) }),
  'GET /api/curriculum/grades/{id}': route({ run: ({ deps, id }) => gradeDetail(deps, id) }),
  'GET /api/nodes/{id}/questions': route({ run: async ({ deps, id }) => ({ items: await nodeQuestions(deps, id) }) }),
  'GET /api/lessons/{id}/questions': route({ run: async ({ deps, id }) => ({ items: await lessonQuestions(deps, id) }) }),
  'GET /api/intro': route({ run: async ({ deps }) => ({ items: introSlides(deps.settings) }) }),
});
