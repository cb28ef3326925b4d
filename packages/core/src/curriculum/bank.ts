/**
 * The question bank as the public sees it (DESIGN §3: usable without login; never returns an answer key).
 * Shapes: grade detail `{ id, title, units: [{ id, title, nodes: [{ id, title, lessons: [{ id, title }] }] }] }`,
 * question `{ id, type, text, choices? }`.
 */
import type { Deps } from '../deps';
import { curriculumErrors } from './errors';
import type { Question } from './model';

export interface PublicQuestion {
  id: number;
  type: 'choice' | 'number';
  text: string;
  choices?: { id: string; text: string }[];
}

/** Strips the answer key: builds the public shape field by field, so a new internal field never leaks. */
export const publicQuestion = (q: Question): PublicQuestion => ({
  id: q.id,
  type: q.type,
  text: q.text,
  ...(q.choices ? { choices: q.choices.map((c) => ({ id: c.id, text: c.text })) } : {}),
});

/** The grades, `{ id, title }` each, in id order. */
export async function listGrades(deps: Deps) {
  const content = await deps.content.get();
  return content.grades.map((g) => ({ id: g.id, title: g.title }));
}

/** One grade with its units, nodes and lessons (title, body, questionCount; no question). Errors: `not_found`. */
export async function gradeDetail(deps: Deps, gradeId: number) {
  const grade = (await deps.content.get()).grade(gradeId);
  if (!grade) throw curriculumErrors.notFound('Grade');
  return {
    id: grade.id,
    title: grade.title,
    units: grade.units.map((u) => ({
      id: u.id,
      title: u.title,
      nodes: u.nodes.map((n) => ({
        id: n.id,
        title: n.title,
        lessons: n.lessons.map((l) => ({ id: l.id, title: l.title, body: l.body, questionCount: l.questions.length })),
      })),
    })),
  };
}

/** The public questions of a node, over its lessons, in order. Errors: `not_found`. */
export async function nodeQuestions(deps: Deps, nodeId: number): Promise<PublicQuestion[]> {
  const content = await deps.content.get();
  if (!content.node(nodeId)) throw curriculumErrors.notFound('Node');
  return content.nodeQuestions(nodeId).map(publicQuestion);
}

/** The public questions of a lesson, in order. Errors: `not_found`. */
export async function lessonQuestions(deps: Deps, lessonId: number): Promise<PublicQuestion[]> {
  const lesson = (await deps.content.get()).lesson(lessonId);
  if (!lesson) throw curriculumErrors.notFound('Lesson');
  return lesson.questions.map(publicQuestion);
}
