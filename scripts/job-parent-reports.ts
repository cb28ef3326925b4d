/**
 * `npm run job:parent-reports [-- --this-week] [-- --aws]`: one run of the weekly parent report job
 * (`packages/functions/src/jobs/parentReports.ts`, the same code the deployed `Cron` runs; DESIGN §13) on the local
 * stack's table, printing the week and how many reports came out each way.
 *
 * Without `--this-week` it sends only inside the sending window (Friday 18:00 to 22:00 Tehran), as the schedule does;
 * `--this-week` sends the current Tehran week's reports now, whatever the day (a demo, or an operator's catch-up): a
 * parent still gets at most one report a week.
 *
 * Table and settings: scripts/localStack.ts (the running `npm start` of DATA_DIR, its fake sms provider and address);
 * SECRET_KEY from DATA_DIR when unset, as `npm start` generated it (it signs the stop links).
 */
import { existsSync } from 'node:fs';
import { buildDeps, loadSettings } from '@mathisland/core';
import { weekKey } from '@mathisland/core/calendar';
import { runParentReports } from '../packages/functions/src/jobs/parentReports';
import { ensureSecretKey } from '../packages/local/src/secretKey';
import { closeTable, type OpenedTable, openTable } from './localStack';

if (existsSync('.env')) process.loadEnvFile('.env');

let opened: OpenedTable | undefined;
try {
  const base = loadSettings();
  opened = await openTable(base, process.argv.includes('--aws'));
  const env = { ...opened.published, ...process.env };
  if (!opened.where.startsWith('AWS')) env.SECRET_KEY ??= ensureSecretKey(base.dataDir).key;
  const deps = buildDeps(loadSettings(env), { db: opened.db });
  const run = await runParentReports(deps, process.argv.includes('--this-week') ? { week: weekKey(deps.clock.now()) } : {});
  console.log(`Parent reports on ${opened.where}: ${JSON.stringify(run)}`);
  if (run.week === null) console.log('Outside the sending window (Friday 18:00-22:00 Tehran): nothing sent. --this-week sends now.');
} catch (error) {
  console.error(`job:parent-reports: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeTable(opened);
}
