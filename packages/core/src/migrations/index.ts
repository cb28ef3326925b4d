/**
 * Data migrations: ordered, idempotent steps that bring the table's data to what this code expects (seed
 * content, plans, later data fixes). Applied by `npm start`, by tests, and in AWS by the Storage stack's
 * deploy-time Script. Each applied id is recorded as an item; health reports the unapplied ones.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { grade4 } from '../curriculum/seed/grade4';
import { grade5 } from '../curriculum/seed/grade5';
import { seedGradeItems } from '../curriculum/seedItems';
import { putAll } from '../db/batch';
import type { Db } from '../db/client';
import { keys } from '../db/keys';
import { saveDiscountCode } from '../subscriptions/discounts';
import { savePlan, seedPlans } from '../subscriptions/plans';

export interface Migration {
  /** Sortable id, e.g. `0001-content`. */
  id: string;
  description: string;
  up(db: Db): Promise<void>;
}

export { putAll } from '../db/batch';

export const migrations: readonly Migration[] = [
  {
    id: '0001-content-grades-4-5',
    description: 'Seed the curriculum of grades 4 and 5 (7 units, 28 nodes each)',
    up: (db) => putAll(db, [...seedGradeItems(grade4), ...seedGradeItems(grade5)]),
  },
  {
    id: '0002-plans-and-welcome-offer',
    description: 'Seed the subscription plans (30, 90, 180 days) and the advertised WELCOME10 discount code',
    async up(db) {
      for (const plan of seedPlans) await savePlan(db, plan);
      await saveDiscountCode(db, {
        code: 'WELCOME10',
        title: 'ده درصد تخفیف اولین خرید',
        percent: 10,
        perUserLimit: 1,
        advertised: true,
        active: true,
      });
    },
  },
];

/** Ids of migrations recorded as applied. */
export async function appliedMigrationIds(db: Db): Promise<Set<string>> {
  const result = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.migrationPartition },
    }),
  );
  return new Set((result.Items ?? []).map((i) => String(i.sk)));
}

/** Ids of migrations this code has that the table has not had applied. */
export async function unappliedMigrations(db: Db): Promise<string[]> {
  const applied = await appliedMigrationIds(db);
  return migrations.filter((m) => !applied.has(m.id)).map((m) => m.id);
}

/** Applies the missing migrations in order; returns the ids it applied. */
export async function applyMigrations(db: Db, now: () => number = Date.now): Promise<string[]> {
  const applied = await appliedMigrationIds(db);
  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    await migration.up(db);
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...keys.migration(migration.id), description: migration.description, appliedAt: new Date(now()).toISOString() },
      }),
    );
    done.push(migration.id);
  }
  return done;
}
