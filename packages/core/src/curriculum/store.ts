/**
 * The curriculum as the service reads it: grades, units, nodes (islands), lessons and questions, loaded
 * from the table into a per-worker cache (content changes only through migrations, so a worker refreshes
 * it at most every {@link CONTENT_TTL_SECONDS}). Loading costs one Query page per grade plus one for the
 * grade list.
 *
 * Map order: units by id, nodes by id within the grade (the seed numbers them in map order, see
 * `seed/types.ts`); "previous node" and `nextNodeId` follow that order across unit boundaries.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { keys } from '../db/keys';
import type { SeedChoice } from './seed/types';

export const CONTENT_TTL_SECONDS = 300;

export interface Question {
  id: number;
  lessonId: number;
  nodeId: number;
  gradeId: number;
  type: 'choice' | 'number';
  text: string;
  choices?: SeedChoice[];
  /** Server-side only: never serialize it into a question-bank response. */
  answer: string;
}

export interface Lesson {
  id: number;
  nodeId: number;
  gradeId: number;
  title: string;
  body: string;
  questions: Question[];
}

export interface CurriculumNode {
  id: number;
  unitId: number;
  gradeId: number;
  title: string;
  lessons: Lesson[];
  /** Position in the grade's map, 0-based. */
  index: number;
  /** The node before it on the map (null for the first), and after it (null at the end of the grade). */
  previousNodeId: number | null;
  nextNodeId: number | null;
}

export interface Unit {
  id: number;
  gradeId: number;
  title: string;
  nodes: CurriculumNode[];
}

export interface Grade {
  id: number;
  title: string;
  units: Unit[];
}

export interface Curriculum {
  grades: Grade[];
  grade(id: number): Grade | undefined;
  node(id: number): CurriculumNode | undefined;
  lesson(id: number): Lesson | undefined;
  question(id: number): Question | undefined;
  /** All questions of a node, over its lessons, in order. */
  nodeQuestions(nodeId: number): Question[];
  counts: { grades: number; units: number; nodes: number; lessons: number; questions: number };
}

export interface ContentStore {
  /** The cached curriculum, loading it when absent or older than the TTL. */
  get(): Promise<Curriculum>;
  /** Drops the cache (after a content migration). */
  invalidate(): void;
  /** What the cache holds, for health: loaded flag and age in seconds. */
  state(): { loaded: boolean; ageSeconds: number | null };
}

type Item = Record<string, unknown> & { kind: string; id: number };

/** Builds the in-memory curriculum from content items of every grade. */
export function buildCurriculum(items: Item[]): Curriculum {
  const byKind = (kind: string) => items.filter((i) => i.kind === kind).sort((a, b) => a.id - b.id);
  const questionsByLesson = new Map<number, Question[]>();
  for (const q of byKind('QUESTION')) {
    const list = questionsByLesson.get(q.lessonId as number) ?? [];
    list.push({
      id: q.id,
      lessonId: q.lessonId as number,
      nodeId: q.nodeId as number,
      gradeId: q.gradeId as number,
      type: q.type as Question['type'],
      text: q.text as string,
      choices: q.choices as SeedChoice[] | undefined,
      answer: q.answer as string,
    });
    questionsByLesson.set(q.lessonId as number, list);
  }
  const lessonsByNode = new Map<number, Lesson[]>();
  for (const l of byKind('LESSON')) {
    const list = lessonsByNode.get(l.nodeId as number) ?? [];
    list.push({
      id: l.id,
      nodeId: l.nodeId as number,
      gradeId: l.gradeId as number,
      title: l.title as string,
      body: (l.body as string) ?? '',
      questions: questionsByLesson.get(l.id) ?? [],
    });
    lessonsByNode.set(l.nodeId as number, list);
  }
  const nodesByUnit = new Map<number, CurriculumNode[]>();
  for (const n of byKind('NODE')) {
    const list = nodesByUnit.get(n.unitId as number) ?? [];
    list.push({
      id: n.id,
      unitId: n.unitId as number,
      gradeId: n.gradeId as number,
      title: n.title as string,
      lessons: lessonsByNode.get(n.id) ?? [],
      index: 0,
      previousNodeId: null,
      nextNodeId: null,
    });
    nodesByUnit.set(n.unitId as number, list);
  }
  const unitsByGrade = new Map<number, Unit[]>();
  for (const u of byKind('UNIT')) {
    const list = unitsByGrade.get(u.gradeId as number) ?? [];
    list.push({ id: u.id, gradeId: u.gradeId as number, title: u.title as string, nodes: nodesByUnit.get(u.id) ?? [] });
    unitsByGrade.set(u.gradeId as number, list);
  }
  const grades: Grade[] = byKind('GRADE').map((g) => ({ id: g.id, title: g.title as string, units: unitsByGrade.get(g.id) ?? [] }));

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

async function queryAll(db: Db, pk: string): Promise<Item[]> {
  const items: Item[] = [];
  const pages = paginateQuery(
    { client: db.doc },
    { TableName: db.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } },
  );
  for await (const page of pages) items.push(...((page.Items ?? []) as Item[]));
  return items;
}

/** Reads every grade's content from the table. */
export async function loadCurriculum(db: Db): Promise<Curriculum> {
  const index = await queryAll(db, keys.contentIndexPartition);
  const perGrade = await Promise.all(index.map((g) => queryAll(db, keys.contentPartition(g.id))));
  return buildCurriculum(perGrade.flat());
}

export function createContentStore(db: Db, clock: Clock): ContentStore {
  let cached: { curriculum: Curriculum; loadedAt: number } | undefined;
  let loading: Promise<Curriculum> | undefined;
  return {
    async get() {
      if (cached && clock.now() - cached.loadedAt < CONTENT_TTL_SECONDS * 1000) return cached.curriculum;
      loading ??= loadCurriculum(db)
        .then((curriculum) => {
          cached = { curriculum, loadedAt: clock.now() };
          return curriculum;
        })
        .finally(() => {
          loading = undefined;
        });
      return loading;
    },
    invalidate() {
      cached = undefined;
    },
    state() {
      return { loaded: Boolean(cached), ageSeconds: cached ? Math.round((clock.now() - cached.loadedAt) / 1000) : null };
    },
  };
}
