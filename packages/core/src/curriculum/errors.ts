/** Error codes of the curriculum (the public question bank). */
import { commonErrors } from '../errors';

export const curriculumErrors = {
  /** `not_found` for a grade, node or lesson id that is not in the curriculum. */
  notFound: (what: 'Grade' | 'Node' | 'Lesson') => commonErrors.notFound(what),
};
