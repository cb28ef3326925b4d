/**
 * The curriculum as the service reads it (grade > unit > node (island) > lesson > question), built from the
 * content items by `build.ts` and cached per worker by `store.ts`. Other domains (progress, tutor) use these
 * shapes through the front.
 */
import type { SeedChoice } from './seed/types';

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
