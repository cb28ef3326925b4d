/**
 * The zod schemas of the seed data files (`grade4.json`, `grade5.json`), checked against the interfaces of
 * `types.ts`: a data file is parsed when the seeding migration loads it, so a typo (an unknown key, a choice id
 * outside a-d, a numeric id written as text) fails the migration instead of reaching the table.
 */
import * as z from 'zod';
import { lazySchema } from '../../lazySchema';
import type { SeedChoice, SeedGrade, SeedLesson, SeedNode, SeedQuestion, SeedUnit } from './types';

const id = z.number().int().positive();

export const SeedChoiceSchema: z.ZodType<SeedChoice> = lazySchema(() =>
  z.strictObject({ id: z.enum(['a', 'b', 'c', 'd']), text: z.string() }),
);

const SeedQuestionSchema: z.ZodType<SeedQuestion> = lazySchema(() =>
  z.strictObject({
    id,
    type: z.enum(['choice', 'number']),
    text: z.string(),
    choices: z.array(SeedChoiceSchema).optional(),
    answer: z.string(),
  }),
);

const SeedLessonSchema: z.ZodType<SeedLesson> = lazySchema(() =>
  z.strictObject({
    id,
    title: z.string(),
    body: z.string(),
    questions: z.array(SeedQuestionSchema),
  }),
);
const SeedNodeSchema: z.ZodType<SeedNode> = lazySchema(() => z.strictObject({ id, title: z.string(), lessons: z.array(SeedLessonSchema) }));
const SeedUnitSchema: z.ZodType<SeedUnit> = lazySchema(() => z.strictObject({ id, title: z.string(), nodes: z.array(SeedNodeSchema) }));

export const SeedGradeSchema: z.ZodType<SeedGrade> = lazySchema(() =>
  z.strictObject({ id, title: z.string(), units: z.array(SeedUnitSchema) }),
);
