/**
 * `npm run job:marketplace-renewal [-- --aws]`: one run of the hourly marketplace renewal job
 * (`packages/functions/src/jobs/marketplaceRenewal.ts`, the same code the deployed `Cron` runs; DESIGN §1, §8) on
 * the local stack's table, printing how many subscriptions came out each way.
 *
 * Table: scripts/lib/localTable.ts (it says which table and endpoint it used, and warns when no `npm start` runs on
 * DATA_DIR). Settings: the environment (and `.env`), over those the running `npm start` filled in; SECRET_KEY and
 * the fake marketplace's static secret come from DATA_DIR when unset, as `npm start` generated them, so a local run
 * asks the stack's fake marketplace (which must be running) with the stack's credential.
 */
import { existsSync } from 'node:fs';
import { buildDeps, loadSettings } from '@mathisland/core';
import { runMarketplaceRenewal } from '../packages/functions/src/jobs/marketplaceRenewal';
import { closeTable, localScriptEnv, type OpenedTable, openTable } from './lib/localTable';

if (existsSync('.env')) process.loadEnvFile('.env');

let opened: OpenedTable | undefined;
try {
  const base = loadSettings();
  opened = await openTable(base, { script: 'job:marketplace-renewal', aws: process.argv.includes('--aws') });
  const counts = await runMarketplaceRenewal(buildDeps(loadSettings(localScriptEnv(opened, base.dataDir)), { db: opened.db }));
  console.log(`Marketplace renewal on ${opened.where}: ${JSON.stringify(counts)}`);
} catch (error) {
  // A bad setting, or subscriptions that failed (the job's log lines above say which).
  console.error(`job:marketplace-renewal: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeTable(opened);
}
