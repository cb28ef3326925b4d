/**
 * Applying the data migrations (DESIGN §5): by `npm start` and the tests (`packages/local`), and in AWS by the
 * Storage stack's deploy-time Script (`packages/functions/src/jobs/migrate.ts`). Health only compares ids.
 */
import type { Db } from '../db/client';
import { migrations } from './ids';
import { appliedMigrationIds, recordApplied } from './migration.entity';

/** Ids of the migrations this code has that the table has not recorded as applied, in order. */
export async function unappliedMigrations(db: Db): Promise<string[]> {
  const applied = await appliedMigrationIds(db);
  return migrations.filter((m) => !applied.has(m.id)).map((m) => m.id);
}

/**
 * Applies the missing migrations in order, recording each after its step succeeded; returns the ids it applied.
 * `now` gives the recorded time and the steps' clock (epoch ms). Errors: rethrows the first failing step's error (the later ones
 * are not applied; a new run retries from it).
 */
export async function applyMigrations(db: Db, now: () => number = Date.now): Promise<string[]> {
  const applied = await appliedMigrationIds(db);
  const pending = migrations.filter((m) => !applied.has(m.id));
  if (pending.length === 0) return [];
  // Imported here only: the steps reach the seed data and other domains, which health never needs.
  const { steps } = await import('./steps');
  for (const migration of pending) {
    await steps[migration.id](db, now);
    await recordApplied(db, migration, now());
  }
  return pending.map((m) => m.id);
}
