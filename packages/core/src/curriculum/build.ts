/**
 * Builds the in-memory curriculum from the content items of every grade (`content.entity.ts`).
 *
 * Map order: units by id, nodes by id within the grade (the seed numbers them in map order, see
 * `seed/types.ts`); "previous node" and `nextNodeId` follow that order across unit boundaries. Lessons and
 * questions are ordered by id within their node and lesson.
 */
import type { ContentItem } from './content.entity';
import type { Curriculum, CurriculumNode, Grade, Lesson, Question, Unit } from './model';

type OfKind<K extends ContentItem['kind']> = Extract<ContentItem, { kind: K }>;

const ofKind = <K extends ContentItem['kind']>(items: ContentItem[], kind: K): OfKind<K>[] =>
  items.filter((i): i is OfKind<K> => i.kind === kind).sort((a, b) => a.id - b.id);

/** Groups `values` by `keyOf`, keeping their order. */
function groupBy<T>(values: T[], keyOf: (value: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const list = groups.get(key) ?? [];
    list.push(value);
    groups.set(key, list);
  }
  return groups;
}

/** Grades with their units, nodes, lessons and questions nested, nodes not yet placed on the map. */
function nest(items: ContentItem[]): Grade[] {
  const questionsByLesson = groupBy(
    ofKind(items, 'QUESTION').map(
      (q): Question => ({
        id: q.id,
        lessonId: q.lessonId,
        nodeId: q.nodeId,
        gradeId: q.gradeId,
        type: q.type,
        text: q.text,
        choices: q.choices,
        answer: q.answer,
      }),
    ),
    (q) => q.lessonId,
  );
  const lessonsByNode = groupBy(
    ofKind(items, 'LESSON').map(
      (l): Lesson => ({
        id: l.id,
        nodeId: l.nodeId,
        gradeId: l.gradeId,
        title: l.title,
        body: l.body ?? '',
        questions: questionsByLesson.get(l.id) ?? [],
      }),
    ),
    (l) => l.nodeId,
  );
  const nodesByUnit = groupBy(
    ofKind(items, 'NODE').map(
      (n): CurriculumNode => ({
        id: n.id,
        unitId: n.unitId,
        gradeId: n.gradeId,
        title: n.title,
        lessons: lessonsByNode.get(n.id) ?? [],
        index: 0,
        previousNodeId: null,
        nextNodeId: null,
      }),
    ),
    (n) => n.unitId,
  );
  const unitsByGrade = groupBy(
    ofKind(items, 'UNIT').map((u): Unit => ({ id: u.id, gradeId: u.gradeId, title: u.title, nodes: nodesByUnit.get(u.id) ?? [] })),
    (u) => u.gradeId,
  );
  return ofKind(items, 'GRADE').map((g) => ({ id: g.id, title: g.title, units: unitsByGrade.get(g.id) ?? [] }));
}

/** The curriculum of `items` (all grades' content items), with each node placed on its grade's map. */
export function buildCurriculum(items: ContentItem[]): Curriculum {
  const grades = nest(items);
  const nodes = new Map<number, CurriculumNode>();
  const lessons = new Map<number, Lesson>();
  const questions = new Map<number, Question>();
  for (const grade of grades) {
    const ordered = grade.units.flatMap((u) => u.nodes);
    ordered.forEach((node, i) => {
      node.index = i;
      node.previousNodeId = ordered[i - 1]?.id ?? null;
      node.nextNodeId = ordered[i + 1]?.id ?? null;
      nodes.set(node.id, node);
      for (const lesson of node.lessons) {
        lessons.set(lesson.id, lesson);
        for (const q of lesson.questions) questions.set(q.id, q);
      }
    });
  }
  return {
    grades,
    grade: (id) => grades.find((g) => g.id === id),
    node: (id) => nodes.get(id),
    lesson: (id) => lessons.get(id),
    question: (id) => questions.get(id),
    nodeQuestions: (nodeId) => nodes.get(nodeId)?.lessons.flatMap((l) => l.questions) ?? [],
    counts: {
      grades: grades.length,
      units: grades.reduce((n, g) => n + g.units.length, 0),
      nodes: nodes.size,
      lessons: lessons.size,
      questions: questions.size,
    },
  };
}
