/**
 * The seed curriculum, loaded from its data files. Only the seeding migration (`migrations/`, through
 * {@link writeSeedContent} of the front) and the tests call this: the files are imported dynamically here and
 * nowhere else, so no request handler's import graph reaches them and no route's Lambda bundle carries the
 * 200 kB of seed text (issue 10).
 */
import { SeedGradeSchema } from './schema';
import type { SeedGrade } from './types';

/**
 * The seeded grades in id order (4, 5), parsed with {@link SeedGradeSchema}. Errors: ZodError when a data file
 * does not match `types.ts`.
 */
export async function seedGrades(): Promise<SeedGrade[]> {
  const files = await Promise.all([
    import('./grade4.json', { with: { type: 'json' } }),
    import('./grade5.json', { with: { type: 'json' } }),
  ]);
  return files.map((file) => SeedGradeSchema.parse(file.default));
}
