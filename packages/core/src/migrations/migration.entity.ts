/**
 * The record of an applied data migration (DESIGN §5): pk `MIGRATION`, sk `<migration id>`, with its
 * description and the ISO time it was applied. One Query of the `MIGRATION` partition lists them. No GSI, no TTL.
 * The lock (pk `MIGRATION_LOCK`) lets one runner at a time apply them: two fresh `npm start`s, a deploy racing a test.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { deleteItem, putItem, queryAll } from '../db/items';
import type { Key } from '../db/keys';
import { lazySchema } from '../lazySchema';
import type { MigrationInfo } from './ids';

export const MIGRATION_PARTITION = 'MIGRATION';

export const migrationKey = (id: string): Key => ({ pk: MIGRATION_PARTITION, sk: id });

export const AppliedMigrationItem = lazySchema(() =>
  z
    .object({
      /** The migration id (the sort key, read because it is the record's identity). */
      sk: z.string(),
      description: z.string(),
      /** ISO time. */
      appliedAt: z.string(),
    })
    .describe('applied migration'),
);
export type AppliedMigrationItem = z.infer<typeof AppliedMigrationItem>;

const AppliedMigrationId = lazySchema(() => AppliedMigrationItem.unwrap().pick({ sk: true }).describe('applied migration'));

/** Ids of the migrations recorded as applied (reads the sort keys only). */
export async function appliedMigrationIds(db: Db): Promise<Set<string>> {
  const items = await queryAll(db, { partition: MIGRATION_PARTITION, projection: ['sk'] }, AppliedMigrationId);
  return new Set(items.map((item) => item.sk));
}

/** Records `migration` as applied at `atMs` (epoch ms); recording it again overwrites the time. */
export const recordApplied = (db: Db, migration: MigrationInfo, atMs: number): Promise<void> =>
  putItem(db, { ...migrationKey(migration.id), description: migration.description, appliedAt: new Date(atMs).toISOString() });

/** The migration lock's key: a partition of its own, so the applied-ids Query never reads it. */
const LOCK_KEY: Key = { pk: 'MIGRATION_LOCK', sk: 'LOCK' };

/**
 * Takes the migration lock for `holder` until `untilMs` (epoch ms) when it is free or its lease has run out
 * (a runner that died holding it): one conditional Put. Returns false when another runner holds it.
 */
export async function takeMigrationLock(db: Db, holder: string, nowMs: number, untilMs: number): Promise<boolean> {
  try {
    await putItem(
      db,
      { ...LOCK_KEY, holder, leaseUntil: untilMs },
      { condition: 'attribute_not_exists(pk) OR leaseUntil < :now', values: { ':now': nowMs } },
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives the lock back if `holder` still has it (a lease taken over by another runner is left alone). */
export async function releaseMigrationLock(db: Db, holder: string): Promise<void> {
  try {
    await deleteItem(db, LOCK_KEY, { condition: 'holder = :holder', values: { ':holder': holder } });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
