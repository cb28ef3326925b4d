/**
 * How the management scripts (createsuperuser, marketplace-authorize, the job-* scripts) find the table to work on,
 * and the settings a running `npm start` filled in:
 *
 * - `DYNAMODB_ENDPOINT` and `TABLE_NAME` when DYNAMODB_ENDPOINT is set;
 * - `--aws`: the deployed table `TABLE_NAME` in AWS (credentials and region from the environment, as the AWS CLI);
 * - otherwise the local stack of DATA_DIR (default `.data`): the running `npm start`'s DynamoDB Local (it writes
 *   its endpoint, table and the settings it filled in to `DATA_DIR/dynamodb.endpoint`), or, when none runs,
 *   DynamoDB Local started here on the same files (the table is created if missing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { buildDeps, type Deps, loadSettings, type Settings } from '@mathisland/core';
import { createDb, type Db, ensureTable } from '@mathisland/core/db';
import { type DynamoLocal, startDynamoLocal } from '../packages/local/src/dynamo';
import { ensureSecretKey } from '../packages/local/src/secretKey';
import { endpointFile } from '../packages/local/src/stack';

export interface OpenedTable {
  db: Db;
  /** Where, in words. */
  where: string;
  /** DynamoDB Local started by this script (stop it at the end). */
  dynamo?: DynamoLocal;
  /** Settings the running `npm start` filled in (PUBLIC_BASE_URL, the fake marketplace's), empty otherwise. */
  published: Record<string, string>;
}

/** What `npm start` wrote to DATA_DIR/dynamodb.endpoint, if it runs. */
export function runningStack(dataDir: string): { endpoint: string; tableName: string; settings?: Record<string, string> } | undefined {
  const file = endpointFile(dataDir);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

async function localAnswers(endpoint: string): Promise<boolean> {
  const db = createDb({ tableName: 'probe', endpoint });
  try {
    await db.raw.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    db.raw.destroy();
  }
}

/** The table the script works on (see the module doc); `aws` is the `--aws` flag. */
export async function openTable(settings: Settings, aws: boolean): Promise<OpenedTable> {
  if (settings.dynamodbEndpoint) {
    return {
      db: createDb({ tableName: settings.tableName, endpoint: settings.dynamodbEndpoint }),
      where: settings.dynamodbEndpoint,
      published: {},
    };
  }
  if (aws) return { db: createDb({ tableName: settings.tableName }), where: `AWS table ${settings.tableName}`, published: {} };
  const running = runningStack(settings.dataDir);
  if (running && (await localAnswers(running.endpoint))) {
    return {
      db: createDb({ tableName: running.tableName, endpoint: running.endpoint }),
      where: `the running npm start (${settings.dataDir})`,
      published: running.settings ?? {},
    };
  }
  const dynamo = await startDynamoLocal({ dbPath: join(settings.dataDir, 'dynamodb') });
  const db = createDb({ tableName: settings.tableName, endpoint: dynamo.endpoint });
  await ensureTable(db);
  return { db, where: `the local data in ${settings.dataDir}`, dynamo, published: {} };
}

/** Closes what {@link openTable} opened. */
export async function closeTable(opened: OpenedTable | undefined): Promise<void> {
  opened?.db.raw.destroy();
  await opened?.dynamo?.stop();
}

/**
 * One run of a scheduled job from the command line (`npm run job:<name> [-- --aws]`): settings from `.env` and the
 * environment over those the running `npm start` published, SECRET_KEY from DATA_DIR when unset locally (as `npm start`
 * generated it), `prepare` for a job's own local settings, then `job` on the table of {@link openTable}; prints
 * `<label> on <where>: <result as JSON>`, or exits 1 with the message (a bad setting, a failed run).
 */
export async function runJobScript(
  name: string,
  label: string,
  job: (deps: Deps) => Promise<unknown>,
  prepare?: (env: Record<string, string | undefined>, opened: OpenedTable, base: Settings) => void,
): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let opened: OpenedTable | undefined;
  try {
    const base = loadSettings();
    opened = await openTable(base, process.argv.includes('--aws'));
    const env: Record<string, string | undefined> = { ...opened.published, ...process.env };
    if (!opened.where.startsWith('AWS')) {
      env.SECRET_KEY ??= ensureSecretKey(base.dataDir).key;
      prepare?.(env, opened, base);
    }
    const result = await job(buildDeps(loadSettings(env), { db: opened.db }));
    console.log(`${label} on ${opened.where}: ${JSON.stringify(result)}`);
  } catch (error) {
    console.error(`job:${name}: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await closeTable(opened);
  }
}
