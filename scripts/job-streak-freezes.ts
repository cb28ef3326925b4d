/**
 * `npm run job:streak-freezes [-- --aws]`: one run of the nightly streak freeze job
 * (`packages/functions/src/jobs/streakFreezes.ts`, the same code the deployed `Cron` runs; DESIGN §13) on the local
 * stack's table: every learner who missed yesterday and holds a freeze has it used now, with its notification.
 * Table and settings: scripts/localStack.ts.
 */
import { existsSync } from 'node:fs';
import { buildDeps, loadSettings } from '@mathisland/core';
import { runStreakFreezes } from '../packages/functions/src/jobs/streakFreezes';
import { ensureSecretKey } from '../packages/local/src/secretKey';
import { closeTable, type OpenedTable, openTable } from './localStack';

if (existsSync('.env')) process.loadEnvFile('.env');

let opened: OpenedTable | undefined;
try {
  const base = loadSettings();
  opened = await openTable(base, process.argv.includes('--aws'));
  const env = { ...opened.published, ...process.env };
  if (!opened.where.startsWith('AWS')) env.SECRET_KEY ??= ensureSecretKey(base.dataDir).key;
  const result = await runStreakFreezes(buildDeps(loadSettings(env), { db: opened.db }));
  console.log(`Streak freezes on ${opened.where}: ${JSON.stringify(result)}`);
} catch (error) {
  console.error(`job:streak-freezes: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeTable(opened);
}
