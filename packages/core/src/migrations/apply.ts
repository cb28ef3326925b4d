/**
 * Applying the data migrations (DESIGN §5): by `npm start` and the tests (`packages/local`), and in AWS by the
 * Storage stack's deploy-time Script (`packages/functions/src/jobs/migrate.ts`). Health only compares ids.
 */

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/client';
import { migrations } from './ids';
import { appliedMigrationIds, recordApplied, releaseMigrationLock, takeMigrationLock } from './migration.entity';

/** Ids of the migrations this code has that the table has not recorded as applied, in order. */
export async function unappliedMigrations(db: Db): Promise<string[]> {
  const applied = await appliedMigrationIds(db);
  return migrations.filter((m) => !applied.has(m.id)).map((m) => m.id);
}

/** How long a runner holds the migration lock (ms): longer than any run of the steps; a dead holder's lease expires. */
const LOCK_LEASE_MS = 10 * 60_000;
/** How often a runner waiting for the lock looks again (ms), and for how long it waits in all. */
const LOCK_POLL_MS = 250;
const LOCK_WAIT_MS = LOCK_LEASE_MS + 60_000;

/**
 * Applies the missing migrations in order, recording each after its step succeeded; returns the ids it applied.
 * One runner at a time: it takes the migration lock (a leased item, migration.entity.ts) first, and a runner that
 * finds it taken waits for it and then applies only what is still missing, so two fresh starts never run one step
 * twice at once. `now` gives the recorded time and the steps' clock (epoch ms); the lease is on wall time.
 * Errors: rethrows the first failing step's error (the later ones are not applied; a new run retries from it);
 * an Error when the lock stays taken longer than a lease.
 */
export async function applyMigrations(db: Db, now: () => number = Date.now): Promise<string[]> {
  const missing = async () => {
    const applied = await appliedMigrationIds(db);
    return migrations.filter((m) => !applied.has(m.id));
  };
  if ((await missing()).length === 0) return [];
  const holder = randomUUID();
  const giveUpAt = Date.now() + LOCK_WAIT_MS;
  while (!(await takeMigrationLock(db, holder, Date.now(), Date.now() + LOCK_LEASE_MS))) {
    if (Date.now() > giveUpAt) throw new Error('data migrations: another runner has held the migration lock for longer than its lease');
    await sleep(LOCK_POLL_MS);
  }
  try {
    const pending = await missing();
    if (pending.length === 0) return [];
    // Imported here only: the steps reach the seed data and other domains, which health never needs.
    const { steps } = await import('./steps');
    for (const migration of pending) {
      await steps[migration.id](db, now);
      await recordApplied(db, migration, now());
    }
    return pending.map((m) => m.id);
  } finally {
    await releaseMigrationLock(db, holder);
  }
}
