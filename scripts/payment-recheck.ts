/**
 * `npm run job:payment-recheck [-- --aws]`: one run of the payment re-check job
 * (packages/functions/src/jobs/paymentRecheck.ts), the one the Jobs stack schedules every 15 minutes.
 *
 * - Default: against the running `npm start` of DATA_DIR (default `.data`; it writes its DynamoDB Local endpoint to
 *   `DATA_DIR/dynamodb.endpoint`) and its fake gateway on PORT (default 3000), with the generated SECRET_KEY of
 *   DATA_DIR, as the local runtime wires them; settings from the environment or `.env` win.
 * - `--aws`: against a deployed stage, wired as its Lambda is: TABLE_NAME and SECRETS_ID (the stage secret's ARN)
 *   from the environment, credentials and region as the AWS CLI's.
 *
 * Prints the result (`{ windowHours, buyers, settled }`); exits 1 with a message when no stack answers or a buyer's
 * re-check failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { buildDeps, type Deps, loadSettings } from '@mathisland/core';
import { recheckPayments } from '../packages/functions/src/jobs/paymentRecheck';
import { productionDeps } from '../packages/functions/src/lib/deps';
import { ensureSecretKey } from '../packages/local/src/secretKey';
import { endpointFile, LOCAL_GATEWAY_MERCHANT_ID } from '../packages/local/src/stack';

if (existsSync('.env')) process.loadEnvFile('.env');

/** The dependencies of the running `npm start`, wired as the local runtime wires its own. */
function localDeps(): Deps {
  const dataDir = process.env.DATA_DIR || '.data';
  const file = endpointFile(dataDir);
  if (!existsSync(file)) throw new Error(`no running npm start found (${file} is missing): start it first, or use --aws`);
  const running = JSON.parse(readFileSync(file, 'utf8')) as { endpoint: string; tableName: string };
  const baseUrl = `http://localhost:${process.env.PORT || 3000}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DYNAMODB_ENDPOINT: running.endpoint,
    TABLE_NAME: running.tableName,
    SECRET_KEY: process.env.SECRET_KEY ?? ensureSecretKey(dataDir).key,
  };
  if (env.GATEWAY_MERCHANT_ID === undefined) {
    env.GATEWAY_MERCHANT_ID = LOCAL_GATEWAY_MERCHANT_ID;
    env.GATEWAY_BASE_URL ??= `${baseUrl}/_local/gateway`;
  }
  env.PUBLIC_BASE_URL ??= baseUrl;
  return buildDeps(loadSettings(env));
}

let deps: Deps | undefined;
try {
  deps = process.argv.includes('--aws') ? await productionDeps()() : localDeps();
  console.log(JSON.stringify(await recheckPayments(deps), null, 2));
} catch (error) {
  console.error(`job:payment-recheck: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  deps?.db.raw.destroy();
}
