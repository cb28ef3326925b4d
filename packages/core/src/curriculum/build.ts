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

/** The items of `kind` made into `T`s, in id order, grouped by the id of their parent (`parentOf`). */
function childrenOf<K extends ContentItem['kind'], T>(
  items: ContentItem[],
  kind: K,
  parentOf: (item: OfKind<K>) => number,
  make: (item: OfKind<K>) => T,
): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of ofKind(items, kind)) {
    const list = groups.get(parentOf(item)) ?? [];
    list.push(make(item));
    groups.set(parentOf(item), list);
  }
  return groups;
}

/**
 * Grades with their units, nodes, lessons and questions nested, nodes not yet placed on the map. Parsed items
 * carry only the attributes their schema names, so spreading one (less its `kind`) adds nothing unnamed.
 */
function nest(items: ContentItem[]): Grade[] {
  const questions = childrenOf(
    items,
    'QUESTION',
    (q) => q.lessonId,
    ({ kind: _, ...q }): Question => q,
  );
  const lessons = childrenOf(
    items,
    'LESSON',
    (l) => l.nodeId,
    ({ kind: _, body, ...l }): Lesson => ({
      ...l,
      body: body ?? '',
      questions: questions.get(l.id) ?? [],
    }),
  );
  const nodes = childrenOf(
    items,
    'NODE',
    (n) => n.unitId,
    ({ kind: _, ...n }): CurriculumNode => ({
      ...n,
      lessons: lessons.get(n.id) ?? [],
      index: 0,
      previousNodeId: null,
      nextNodeId: null,
    }),
  );
  const units = childrenOf(
    items,
    'UNIT',
    (u) => u.gradeId,
    ({ kind: _, ...u }): Unit => ({ ...u, nodes: nodes.get(u.id) ?? [] }),
  );
  return ofKind(items, 'GRADE').map((g) => ({ id: g.id, title: g.title, units: units.get(g.id) ?? [] }));
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
