/** Endpoint group `curriculum`: the public question bank (DESIGN §3) and the intro; no login, never an answer key. */
import { gradeDetail, introSlides, lessonQuestions, listGrades, nodeQuestions } from '@mathisland/core/curriculum';
import { XP_PER_CORRECT } from '@mathisland/core/progress';
import * as z from 'zod';
import { curriculumRoutes } from '../../../../infra/routes/curriculum';
import { defineGroup } from '../lib/group';
import { json } from '../lib/responses';
import { type RouteInput, route } from '../lib/route';
import { Id, page, Question, responseShape } from '../lib/shapes';

type Input = RouteInput<undefined, unknown>;

const Grade = responseShape(() => z.object({ id: Id, title: z.string() }));
const GradeDetail = responseShape(() =>
  z
    .object({
      id: Id,
      title: z.string(),
      units: z.array(
        z.object({
          id: Id,
          title: z.string(),
          nodes: z.array(
            z.object({
              id: Id,
              title: z.string(),
              lessons: z.array(z.object({ id: Id, title: z.string(), body: z.string(), questionCount: z.number().int().min(0) })),
            }),
          ),
        }),
      ),
    })
    .meta({ id: 'GradeDetail', description: 'A grade with its units, nodes (islands) and lessons (DESIGN §3)' }),
);
const Questions = json(page(Question), 'The questions, without answer keys');
const notFound = (what: string) => ({ not_found: `No such ${what}.` });

const grades = async ({ deps }: Input) => ({ items: await listGrades(deps) });
const grade = ({ deps, id }: Input) => gradeDetail(deps, id);
const questionsOfNode = async ({ deps, id }: Input) => ({ items: await nodeQuestions(deps, id) });
const questionsOfLesson = async ({ deps, id }: Input) => ({ items: await lessonQuestions(deps, id) });
const intro = async ({ deps }: Input) => ({ items: introSlides(deps.settings, { xpPerCorrect: XP_PER_CORRECT }) });

export const { handler, createHandler, routes } = defineGroup(curriculumRoutes, {
  'GET /api/curriculum/grades': route.public({ responses: { 200: page(Grade) }, run: grades }),
  'GET /api/curriculum/grades/{id}': route.public({ responses: { 200: GradeDetail }, errors: notFound('grade'), run: grade }),
  'GET /api/nodes/{id}/questions': route.public({ responses: { 200: Questions }, errors: notFound('node'), run: questionsOfNode }),
  'GET /api/lessons/{id}/questions': route.public({ responses: { 200: Questions }, errors: notFound('lesson'), run: questionsOfLesson }),
  'GET /api/intro': route.public({
    description: 'Onboarding screens; the hearts screen is left out when hearts are not enforced.',
    responses: { 200: page(z.object({ id: z.string(), title: z.string(), text: z.string() })) },
    run: intro,
  }),
});
