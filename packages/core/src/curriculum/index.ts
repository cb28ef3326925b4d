/** The curriculum: content cache and the public question bank (spec "Curriculum"). */
export { gradeDetail, lessonQuestions, listGrades, nodeQuestions, publicQuestion, type PublicQuestion } from './bank';
export { createContentStore, buildCurriculum, loadCurriculum, type ContentStore, type Curriculum } from './store';
