/**
 * `npm run job:marketplace-renewal [-- --aws]`: one run of the hourly marketplace renewal job
 * (`packages/functions/src/jobs/marketplaceRenewal.ts`, the same code the deployed `Cron` runs; DESIGN §1, §8) on
 * the local stack's table, printing how many subscriptions came out each way.
 *
 * Table: scripts/localStack.ts. Settings: the environment (and `.env`), over those the running `npm start` filled
 * in; SECRET_KEY and the fake marketplace's static secret come from DATA_DIR when unset, as `npm start` generated
 * them, so a local run asks the stack's fake marketplace (which must be running) with the stack's credential.
 */
import { existsSync } from 'node:fs';
import { buildDeps, loadSettings } from '@mathisland/core';
import { runMarketplaceRenewal } from '../packages/functions/src/jobs/marketplaceRenewal';
import { ensureMarketplaceSecret, ensureSecretKey } from '../packages/local/src/secretKey';
import { closeTable, type OpenedTable, openTable } from './localStack';

if (existsSync('.env')) process.loadEnvFile('.env');

let opened: OpenedTable | undefined;
try {
  const base = loadSettings();
  opened = await openTable(base, process.argv.includes('--aws'));
  const env = { ...opened.published, ...process.env };
  if (!opened.where.startsWith('AWS')) {
    env.SECRET_KEY ??= ensureSecretKey(base.dataDir).key;
    if (opened.published.MARKETPLACE_BASE_URL) env.MARKETPLACE_API_SECRET ??= ensureMarketplaceSecret(base.dataDir).key;
  }
  const counts = await runMarketplaceRenewal(buildDeps(loadSettings(env), { db: opened.db }));
  console.log(`Marketplace renewal on ${opened.where}: ${JSON.stringify(counts)}`);
} catch (error) {
  // A bad setting, or subscriptions that failed (the job's log lines above say which).
  console.error(`job:marketplace-renewal: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeTable(opened);
}
