/**
 * Shapes of the seeded curriculum (grade > unit > node (island) > lesson > question).
 *
 * Seed files are plain data; the `content` migration writes them to the table. Ids are fixed in the
 * seed so that re-applying the migration is idempotent, and follow one numbering scheme so that an id
 * tells where it lives (all ASCII decimal, spec "Curriculum"):
 *   grade    g                       (4, 5)
 *   unit     g*100 + u               (401..407)     u = 1..7 within the grade
 *   node     g*1000 + n              (4001..4028)   n = 1..28 across the whole grade, in map order
 *   lesson   node*10 + l             (40011..)      l = 1..9 within the node
 *   question lesson*10 + q           (400111..)     q = 1..9 within the lesson
 */

/** A choice of a multiple-choice question; `id` is what the learner sends as the answer. */
export interface SeedChoice {
  id: 'a' | 'b' | 'c' | 'd';
  text: string;
}

/**
 * One practice question. `answer` is held server-side only and never leaves the API in the question bank:
 * for `choice` it is the id of the correct choice, for `number` the exact number as an ASCII string
 * ("42", "3.5", "-7"): the learner's numeric answer is compared as a number.
 */
export interface SeedQuestion {
  id: number;
  type: 'choice' | 'number';
  text: string;
  choices?: SeedChoice[];
  answer: string;
}

/** A lesson; `body` is a short Persian explanation shown before the questions (and textbook text for the tutor). */
export interface SeedLesson {
  id: number;
  title: string;
  body: string;
  questions: SeedQuestion[];
}

export interface SeedNode {
  id: number;
  title: string;
  lessons: SeedLesson[];
}

export interface SeedUnit {
  id: number;
  title: string;
  nodes: SeedNode[];
}

export interface SeedGrade {
  id: number;
  title: string;
  units: SeedUnit[];
}
