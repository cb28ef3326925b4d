/**
 * The record of an applied data migration (DESIGN §5): pk `MIGRATION`, sk `<migration id>`, with its
 * description and the ISO time it was applied. One Query of the `MIGRATION` partition lists them. No GSI, no TTL.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { putItem, queryAll } from '../db/items';
import type { Key } from '../db/keys';
import type { MigrationInfo } from './ids';

export const MIGRATION_PARTITION = 'MIGRATION';

export const migrationKey = (id: string): Key => ({ pk: MIGRATION_PARTITION, sk: id });

export const AppliedMigrationItem = z
  .object({
    /** The migration id (the sort key, read because it is the record's identity). */
    sk: z.string(),
    description: z.string(),
    /** ISO time. */
    appliedAt: z.string(),
  })
  .describe('applied migration');
export type AppliedMigrationItem = z.infer<typeof AppliedMigrationItem>;

const AppliedMigrationId = AppliedMigrationItem.pick({ sk: true }).describe('applied migration');

/** Ids of the migrations recorded as applied (reads the sort keys only). */
export async function appliedMigrationIds(db: Db): Promise<Set<string>> {
  const items = await queryAll(db, { partition: MIGRATION_PARTITION, projection: ['sk'] }, AppliedMigrationId);
  return new Set(items.map((item) => item.sk));
}

/** Records `migration` as applied at `atMs` (epoch ms); recording it again overwrites the time. */
export const recordApplied = (db: Db, migration: MigrationInfo, atMs: number): Promise<void> =>
  putItem(db, { ...migrationKey(migration.id), description: migration.description, appliedAt: new Date(atMs).toISOString() });
