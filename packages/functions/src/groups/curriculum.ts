/** Endpoint group `curriculum`: the public question bank (DESIGN §3) and the intro; no login, never an answer key. */
import { gradeDetail, introSlides, lessonQuestions, listGrades, nodeQuestions } from '@mathisland/core/curriculum';
import { XP_PER_CORRECT } from '@mathisland/core/progress';
import { defineGroup } from '../lib/group';
import { type RouteInput, route } from '../lib/route';

type Input = RouteInput<undefined, unknown>;

const grades = async ({ deps }: Input) => ({ items: await listGrades(deps) });
const grade = ({ deps, id }: Input) => gradeDetail(deps, id);
const questionsOfNode = async ({ deps, id }: Input) => ({ items: await nodeQuestions(deps, id) });
const questionsOfLesson = async ({ deps, id }: Input) => ({ items: await lessonQuestions(deps, id) });
const intro = async ({ deps }: Input) => ({ items: introSlides(deps.settings, { xpPerCorrect: XP_PER_CORRECT }) });

export const { handler, createHandler, routes } = defineGroup('curriculum', {
  'GET /api/curriculum/grades': route.public({ run: grades }),
  'GET /api/curriculum/grades/{id}': route.public({ run: grade }),
  'GET /api/nodes/{id}/questions': route.public({ run: questionsOfNode }),
  'GET /api/lessons/{id}/questions': route.public({ run: questionsOfLesson }),
  'GET /api/intro': route.public({ run: intro }),
});
