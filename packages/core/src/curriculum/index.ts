/**
 * The curriculum (spec "Curriculum"): the per-worker content cache and its shapes (used by progress, tutor and
 * the wiring), the public question bank and the intro (the `curriculum` group), and the seed content (the
 * seeding migration and the tests; no route calls it, and its data files are loaded only when it is called).
 */
export { gradeDetail, lessonQuestions, listGrades, nodeQuestions, type PublicQuestion, publicQuestion } from './bank';
export { type IntroScoring, type IntroSlide, introSlides } from './intro';
export type { ContentStore, Curriculum, CurriculumNode, Lesson, Question } from './model';
export { seedGrades } from './seed/load';
export type { SeedChoice, SeedGrade, SeedLesson, SeedNode, SeedQuestion, SeedUnit } from './seed/types';
export { writeSeedContent } from './seedContent';
export { createContentStore } from './store';
