/**
 * `npm run job:payment-recheck [-- --aws]`: one run of the payment re-check job
 * (packages/functions/src/jobs/paymentRecheck.ts), the one the Jobs stack schedules every 15 minutes.
 *
 * - Default: against the running `npm start` of DATA_DIR (default `.data`; scripts/lib/localTable.ts finds it, waits
 *   for one still starting, and says which table and endpoint it used) and its fake gateway, with the generated
 *   SECRET_KEY of DATA_DIR, as the local runtime wires them; settings from the environment or `.env` win. Without a
 *   running `npm start` it refuses: the fake gateway it would ask lives in that process.
 * - `--aws`: against a deployed stage, wired as its Lambda is: TABLE_NAME and SECRETS_ID (the stage secret's ARN)
 *   from the environment, credentials and region as the AWS CLI's.
 *
 * Prints the result (`{ windowHours, buyers, settled }`); exits 1 with a message when no stack answers or a buyer's
 * re-check failed.
 */
import { existsSync } from 'node:fs';
import { buildDeps, type Deps, loadSettings } from '@mathisland/core';
import { recheckPayments } from '../packages/functions/src/jobs/paymentRecheck';
import { productionDeps } from '../packages/functions/src/lib/deps';
import { closeTable, localScriptEnv, type OpenedTable, openTable } from './lib/localTable';

if (existsSync('.env')) process.loadEnvFile('.env');

let opened: OpenedTable | undefined;
let deps: Deps | undefined;
try {
  if (process.argv.includes('--aws')) deps = await productionDeps()();
  else {
    const base = loadSettings();
    opened = await openTable(base, { script: 'job:payment-recheck', aws: false, requireRunning: true });
    deps = buildDeps(loadSettings(localScriptEnv(opened, base.dataDir)), { db: opened.db });
  }
  console.log(JSON.stringify(await recheckPayments(deps), null, 2));
} catch (error) {
  console.error(`job:payment-recheck: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  if (opened) await closeTable(opened);
  else deps?.db.raw.destroy();
}
