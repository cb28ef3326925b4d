/**
 * The curriculum's stored items: grades, units, nodes (islands), lessons and questions (spec "Curriculum";
 * DESIGN §5). Content is written only by the seeding migration and read into the per-worker cache
 * (`store.ts`); nothing else touches these items.
 *
 * | item              | pk                  | sk                    | attributes                                            |
 * |-------------------|---------------------|-----------------------|-------------------------------------------------------|
 * | grade index entry | CONTENT             | GRADE#<gradeId 4>     | kind GRADE, id, title                                 |
 * | grade             | CONTENT#<gradeId 4> | GRADE#<gradeId 10>    | kind GRADE, id, title                                 |
 * | unit              | CONTENT#<gradeId 4> | UNIT#<unitId 10>      | kind UNIT, id, gradeId, title                         |
 * | node              | CONTENT#<gradeId 4> | NODE#<nodeId 10>      | kind NODE, id, unitId, gradeId, title                 |
 * | lesson            | CONTENT#<gradeId 4> | LESSON#<lessonId 10>  | kind LESSON, id, nodeId, gradeId, title, body         |
 * | question          | CONTENT#<gradeId 4> | QUESTION#<qId 10>     | kind QUESTION, id, lessonId, nodeId, gradeId, type, text, choices?, answer |
 *
 * Ids are zero-padded (`<id 10>`: 10 digits) so they sort as strings. One Query of `CONTENT` lists the grades;
 * one Query of a grade's partition reads all of its content. No GSI, no TTL.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { lazySchema } from '../lazySchema';
import { SeedChoiceSchema } from './seed/schema';
import type { SeedGrade } from './seed/types';

/** The partition of the grade index: one entry per grade. */
export const CONTENT_INDEX_PARTITION = 'CONTENT';

/** The grade's entry in the grade index. */
export const gradeIndexKey = (gradeId: number): Key => ({ pk: CONTENT_INDEX_PARTITION, sk: `GRADE#${pad(gradeId, 4)}` });

/** The partition holding all of a grade's content. */
export const contentPartition = (gradeId: number): string => `CONTENT#${pad(gradeId, 4)}`;

export type ContentKind = 'GRADE' | 'UNIT' | 'NODE' | 'LESSON' | 'QUESTION';

/** One content item of grade `gradeId`. */
export const contentKey = (gradeId: number, kind: ContentKind, id: number): Key => ({
  pk: contentPartition(gradeId),
  sk: `${kind}#${pad(id, 10)}`,
});

const id = z.number().int().positive();
const title = z.string();

export const GradeItem = lazySchema(() => z.object({ kind: z.literal('GRADE'), id, title }).describe('grade'));
export const UnitItem = lazySchema(() => z.object({ kind: z.literal('UNIT'), id, gradeId: id, title }).describe('unit'));
export const NodeItem = lazySchema(() => z.object({ kind: z.literal('NODE'), id, unitId: id, gradeId: id, title }).describe('node'));
export const LessonItem = lazySchema(() =>
  z
    .object({
      kind: z.literal('LESSON'),
      id,
      nodeId: id,
      gradeId: id,
      title,
      /** Short Persian explanation shown before the questions; read as '' when absent. */
      body: z.string().optional(),
    })
    .describe('lesson'),
);
export const QuestionItem = lazySchema(() =>
  z
    .object({
      kind: z.literal('QUESTION'),
      id,
      lessonId: id,
      nodeId: id,
      gradeId: id,
      type: z.enum(['choice', 'number']),
      text: z.string(),
      /** Only on `choice` questions. */
      choices: z.array(SeedChoiceSchema).optional(),
      /** The answer key: a choice id, or the exact number as an ASCII string. Never leaves the API. */
      answer: z.string(),
    })
    .describe('question'),
);

/** Any item of a grade's content partition. */
export const ContentItem = lazySchema(() =>
  z
    .discriminatedUnion('kind', [GradeItem.unwrap(), UnitItem.unwrap(), NodeItem.unwrap(), LessonItem.unwrap(), QuestionItem.unwrap()])
    .describe('content item'),
);
export type ContentItem = z.infer<typeof ContentItem>;
export type GradeEntry = z.infer<typeof GradeItem>;
/** A content item as written, with its key (a type literal, so it is a plain record for `putAll`). */
export type ContentRecord = { pk: string; sk: string } & ContentItem;

const GradeIndexEntry = GradeItem.describe('grade index entry');

/** The grades listed in the grade index, in id order (eventually consistent: content changes only by migration). */
export const readGradeIndex = (db: Db): Promise<GradeEntry[]> =>
  queryAll(db, { partition: CONTENT_INDEX_PARTITION, consistent: false }, GradeIndexEntry);

/** Every content item of grade `gradeId` (eventually consistent). */
export const readGradeContent = (db: Db, gradeId: number): Promise<ContentItem[]> =>
  queryAll(db, { partition: contentPartition(gradeId), consistent: false }, ContentItem);

/**
 * The table items of a seed grade, keys included: its index entry, then the grade, and each unit, node, lesson
 * and question in seed order. Writing them again is idempotent (ids are fixed in the seed).
 */
export function contentItemsOf(grade: SeedGrade): ContentRecord[] {
  const gradeId = grade.id;
  const items: ContentRecord[] = [
    { ...gradeIndexKey(gradeId), kind: 'GRADE', id: gradeId, title: grade.title },
    { ...contentKey(gradeId, 'GRADE', gradeId), kind: 'GRADE', id: gradeId, title: grade.title },
  ];
  for (const unit of grade.units) {
    items.push({ ...contentKey(gradeId, 'UNIT', unit.id), kind: 'UNIT', id: unit.id, gradeId, title: unit.title });
    for (const node of unit.nodes) {
      items.push({ ...contentKey(gradeId, 'NODE', node.id), kind: 'NODE', id: node.id, unitId: unit.id, gradeId, title: node.title });
      for (const lesson of node.lessons) {
        const { id: lessonId, title: lessonTitle, body } = lesson;
        items.push({
          ...contentKey(gradeId, 'LESSON', lessonId),
          kind: 'LESSON',
          id: lessonId,
          nodeId: node.id,
          gradeId,
          title: lessonTitle,
          body,
        });
        for (const q of lesson.questions) {
          items.push({
            ...contentKey(gradeId, 'QUESTION', q.id),
            kind: 'QUESTION',
            id: q.id,
            lessonId,
            nodeId: node.id,
            gradeId,
            type: q.type,
            text: q.text,
            ...(q.choices ? { choices: q.choices } : {}),
            answer: q.answer,
          });
        }
      }
    }
  }
  return items;
}
