/**
 * Data migrations at deploy time (DESIGN §5; `packages/core/src/migrations`).
 *
 * This is the handler of the SST `Script` in `stacks/Storage.ts`. CloudFormation runs it after the table
 * is created (onCreate) and again on every later `sst deploy` of the Storage stack (onUpdate; the Script's
 * version changes on each deploy). It applies, in order, the migrations this code has that the table has not
 * recorded yet, so a run with nothing to do is cheap and repeating a run is harmless. A failure fails the
 * deploy, which rolls the stack back.
 *
 * Environment: TABLE_NAME (the stack sets it); credentials and region come from the Lambda environment.
 */
import { logger } from '@mathisland/core';
import { createDb } from '@mathisland/core/db';
import { applyMigrations } from '@mathisland/core/migrations';
import { jobHandler } from '../lib/job';

export const handler = jobHandler(async (): Promise<{ applied: string[] }> => {
  const tableName = process.env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME is not set; the Storage stack passes it to the migration script');
  const db = createDb({ tableName });
  const applied = await applyMigrations(db);
  logger.info(applied.length ? 'migrations applied' : 'no migrations to apply', { tableName, applied });
  return { applied };
});
