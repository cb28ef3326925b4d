/**
 * How the management scripts (createsuperuser, marketplace-authorize and the `job:*` scripts) find the table to work
 * on, say which one they used, and get the settings a running `npm start` filled in:
 *
 * - `DYNAMODB_ENDPOINT` and `TABLE_NAME` when DYNAMODB_ENDPOINT is set;
 * - `--aws`: the deployed table `TABLE_NAME` in AWS (credentials and region from the environment, as the AWS CLI);
 * - otherwise the local stack of DATA_DIR (default `.data`), found through `DATA_DIR/stack.json`
 *   (packages/local/src/dataDirState.ts): the running `npm start`'s DynamoDB Local; an `npm start` still starting,
 *   or another script using DATA_DIR, is waited for (up to {@link WAIT_FOR_HOLDER_MS}, saying so); when nothing runs,
 *   the script holds DATA_DIR itself and starts DynamoDB Local on its files (the table is created if missing), with
 *   a warning: an `npm start` on another DATA_DIR does not see what it writes. Scripts that need the running stack's
 *   fakes (`requireRunning`) refuse instead.
 *
 * Every run prints (to stderr) the table and endpoint it used and whose they are.
 */
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { Settings } from '@mathisland/core';
import { createDb, type Db, ensureTable } from '@mathisland/core/db';
import { acquireDataDir, DataDirBusyError, type DataDirClaim } from '../../packages/local/src/dataDirState';
import { type DynamoLocal, startDynamoLocal } from '../../packages/local/src/dynamo';
import { ensureMarketplaceSecret, ensureSecretKey } from '../../packages/local/src/secretKey';
import { LOCAL_GATEWAY_MERCHANT_ID } from '../../packages/local/src/stack';

/** The table cannot be opened for a reason to tell the user (no running stack, a stuck one, DATA_DIR held too long). */
export class TableRefusal extends Error {}

/** How long a script waits for an `npm start` that is starting, or for another script using DATA_DIR. */
export const WAIT_FOR_HOLDER_MS = 180_000;

export interface OpenedTable {
  db: Db;
  tableName: string;
  /** DynamoDB's endpoint; undefined for AWS. */
  endpoint?: string;
  /** Whose table: given by DYNAMODB_ENDPOINT, in AWS, the running `npm start`'s, or DynamoDB Local started here. */
  source: 'endpoint' | 'aws' | 'npm start' | 'own';
  /** Where, in words (table, endpoint, whose). */
  where: string;
  /** DynamoDB Local started by this script, and its hold on DATA_DIR (both let go by {@link closeTable}). */
  dynamo?: DynamoLocal;
  claim?: DataDirClaim;
  /** Settings the running `npm start` filled in (PUBLIC_BASE_URL, the fake marketplace's), empty otherwise. */
  published: Record<string, string>;
}

export interface OpenOptions {
  /** The script's name as run (`createsuperuser`, `job:marketplace-renewal`), for its messages. */
  script: string;
  /** The `--aws` flag. */
  aws: boolean;
  /** Refuse unless an `npm start` runs on DATA_DIR (its fakes are needed). */
  requireRunning?: boolean;
  /** Where the "using …" line goes (default stderr). */
  say?: (line: string) => void;
}

async function answers(endpoint: string): Promise<boolean> {
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

/** The local stack's table of `settings.dataDir` (see the module doc). Errors: see {@link openTable}. */
async function openLocal(settings: Settings, options: OpenOptions, say: (line: string) => void): Promise<OpenedTable> {
  const dataDir = settings.dataDir;
  const acquired = await acquireDataDir(dataDir, `npm run ${options.script}`, {
    useRunning: true,
    timeoutMs: WAIT_FOR_HOLDER_MS,
    onWait: (holder) =>
      say(
        `${options.script}: ${holder.owner} (pid ${holder.pid}) is ${holder.state === 'starting' ? 'still starting on' : 'using'} ${dataDir}; ` +
          `waiting for it (up to ${WAIT_FOR_HOLDER_MS / 1000} s) instead of starting a second DynamoDB Local on the same files...`,
      ),
  }).catch((error) => {
    throw error instanceof DataDirBusyError ? new TableRefusal(error.message) : error;
  });
  if (acquired.kind === 'running') {
    const { endpoint, tableName, pid } = acquired.state;
    if (!endpoint || !tableName || !(await answers(endpoint))) {
      throw new TableRefusal(`the npm start of ${dataDir} (pid ${pid}) does not answer at ${endpoint}: is it stuck? Restart it`);
    }
    return {
      db: createDb({ tableName, endpoint }),
      tableName,
      endpoint,
      source: 'npm start',
      where: `table ${tableName} at ${endpoint}, the running npm start (pid ${pid}) of DATA_DIR ${dataDir}`,
      published: acquired.state.settings ?? {},
    };
  }
  const { claim, replaced } = acquired;
  if (replaced) say(`${options.script}: ${dataDir}: ${replaced}`);
  if (options.requireRunning) {
    claim.release();
    throw new TableRefusal(
      `no running npm start found for DATA_DIR=${dataDir}: start it first (or set DATA_DIR to its data), or use --aws`,
    );
  }
  let dynamo: DynamoLocal | undefined;
  try {
    dynamo = await startDynamoLocal({ dbPath: join(dataDir, 'dynamodb') });
    const db = createDb({ tableName: settings.tableName, endpoint: dynamo.endpoint });
    await ensureTable(db);
    claim.running({ endpoint: dynamo.endpoint, tableName: settings.tableName, dynamoPid: dynamo.pid });
    say(
      `${options.script}: WARNING: no running npm start found for DATA_DIR=${dataDir}; started DynamoDB Local on ` +
        `${join(dataDir, 'dynamodb')} for this run. An npm start on another DATA_DIR does not see what this run does: ` +
        'run with its DATA_DIR (or its DYNAMODB_ENDPOINT and TABLE_NAME).',
    );
    return {
      db,
      tableName: settings.tableName,
      endpoint: dynamo.endpoint,
      source: 'own',
      where: `table ${settings.tableName} at ${dynamo.endpoint}, DynamoDB Local started by this run on DATA_DIR ${dataDir}`,
      dynamo,
      claim,
      published: {},
    };
  } catch (error) {
    await dynamo?.stop();
    claim.release();
    throw error;
  }
}

/**
 * The table the script works on (see the module doc), announced with `say`. Errors: {@link TableRefusal} (no running
 * `npm start` with `requireRunning`; a running one that does not answer; DATA_DIR still held after
 * {@link WAIT_FOR_HOLDER_MS}); DynamoDB Local failing to start (Java missing).
 */
export async function openTable(settings: Settings, options: OpenOptions): Promise<OpenedTable> {
  const say = options.say ?? ((line: string) => console.error(line));
  let opened: OpenedTable;
  if (settings.dynamodbEndpoint) {
    const { tableName, dynamodbEndpoint: endpoint } = settings;
    opened = {
      db: createDb({ tableName, endpoint }),
      tableName,
      endpoint,
      source: 'endpoint',
      where: `table ${tableName} at ${endpoint} (DYNAMODB_ENDPOINT)`,
      published: {},
    };
  } else if (options.aws) {
    const { tableName } = settings;
    opened = { db: createDb({ tableName }), tableName, source: 'aws', where: `AWS table ${tableName}`, published: {} };
  } else {
    opened = await openLocal(settings, options, say);
  }
  say(`${options.script}: using ${opened.where}`);
  return opened;
}

/**
 * The settings environment of a script that builds the service's dependencies on `opened`: the running stack's
 * published settings under the environment's, and, off AWS, what `npm start` generated into DATA_DIR (SECRET_KEY,
 * the fake marketplace's static secret) and, on a running stack, its fake gateway (as stack.ts wires them).
 */
export function localScriptEnv(opened: OpenedTable, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...opened.published, ...process.env };
  if (opened.source === 'aws') return env;
  env.SECRET_KEY ??= ensureSecretKey(dataDir).key;
  if (opened.published.MARKETPLACE_BASE_URL) env.MARKETPLACE_API_SECRET ??= ensureMarketplaceSecret(dataDir).key;
  const baseUrl = opened.published.PUBLIC_BASE_URL;
  if (opened.source === 'npm start' && baseUrl && env.GATEWAY_MERCHANT_ID === undefined) {
    env.GATEWAY_MERCHANT_ID = LOCAL_GATEWAY_MERCHANT_ID;
    env.GATEWAY_BASE_URL ??= `${baseUrl}/_local/gateway`;
  }
  return env;
}

/** Closes what {@link openTable} opened: the client, DynamoDB Local started here, the hold on DATA_DIR. */
export async function closeTable(opened: OpenedTable | undefined): Promise<void> {
  opened?.db.raw.destroy();
  await opened?.dynamo?.stop();
  opened?.claim?.release();
}
