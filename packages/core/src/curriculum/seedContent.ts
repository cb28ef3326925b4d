/**
 * Writes the seed curriculum to the table: the step of the migration `0001-content-grades-4-5`
 * (`migrations/`). Unconditional batch puts of fixed ids, so applying it again changes nothing.
 */
import { putAll } from '../db/batch';
import type { Db } from '../db/client';
import { contentItemsOf } from './content.entity';
import { seedGrades } from './seed/load';

/** Loads the seed grades and writes all of their content items (BatchWriteItem, 25 per call). */
export async function writeSeedContent(db: Db): Promise<void> {
  const grades = await seedGrades();
  await putAll(db, grades.flatMap(contentItemsOf));
}
