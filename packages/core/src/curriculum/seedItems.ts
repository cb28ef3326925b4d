/**
 * Turns a seed grade into table items (one per grade, unit, node, lesson and question, all in the grade's
 * content partition) plus the grade's entry in the content index.
 */
import { keys } from '../db/keys';
import type { SeedGrade } from './seed/types';

export function seedGradeItems(grade: SeedGrade): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [
    { ...keys.contentIndex(grade.id), kind: 'GRADE', id: grade.id, title: grade.title },
    { ...keys.content(grade.id, 'GRADE', grade.id), kind: 'GRADE', id: grade.id, title: grade.title },
  ];
  for (const unit of grade.units) {
    items.push({ ...keys.content(grade.id, 'UNIT', unit.id), kind: 'UNIT', id: unit.id, gradeId: grade.id, title: unit.title });
    for (const node of unit.nodes) {
      items.push({
        ...keys.content(grade.id, 'NODE', node.id),
        kind: 'NODE',
        id: node.id,
        unitId: unit.id,
        gradeId: grade.id,
        title: node.title,
      });
      for (const lesson of node.lessons) {
        items.push({
          ...keys.content(grade.id, 'LESSON', lesson.id),
          kind: 'LESSON',
          id: lesson.id,
          nodeId: node.id,
          gradeId: grade.id,
          title: lesson.title,
          body: lesson.body,
        });
        for (const q of lesson.questions) {
          items.push({
            ...keys.content(grade.id, 'QUESTION', q.id),
            kind: 'QUESTION',
            id: q.id,
            lessonId: lesson.id,
            nodeId: node.id,
            gradeId: grade.id,
            type: q.type,
            text: q.text,
            choices: q.choices,
            answer: q.answer,
          });
        }
      }
    }
  }
  return items;
}
