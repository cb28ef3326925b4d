/** The curriculum: content cache and the public question bank (spec "Curriculum"). */
export { gradeDetail, lessonQuestions, listGrades, nodeQuestions, type PublicQuestion, publicQuestion } from './bank';
export { type IntroSlide, introSlides } from './intro';
export { buildCurriculum, type ContentStore, type Curriculum, createContentStore, loadCurriculum } from './store';
