/**
 * `npm run createsuperuser [-- --username <name>] [-- --aws]`: creates an admin superuser (spec Authentication
 * 6; DESIGN §2), who can then sign in with `POST /api/admin/login` and holds every permission.
 *
 * Which table:
 * - `DYNAMODB_ENDPOINT` and `TABLE_NAME` when DYNAMODB_ENDPOINT is set;
 * - `--aws`: the deployed table `TABLE_NAME` in AWS (credentials and region from the environment, as the AWS CLI);
 * - otherwise the local stack of DATA_DIR (default `.data`): the running `npm start`'s DynamoDB Local (it writes
 *   its endpoint to `DATA_DIR/dynamodb.endpoint`), or, when none runs, DynamoDB Local started here on the same
 *   files (the table is created if missing).
 *
 * Username: `--username`, else ADMIN_USERNAME, else asked. Password (at least 10 characters): ADMIN_PASSWORD,
 * else asked twice on a terminal without echo, else the first line of stdin. Exits 1 with a message on any
 * refusal (taken username, short password).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DomainError, loadSettings, systemClock } from '@mathisland/core';
import { createStaff, MIN_PASSWORD_LENGTH } from '@mathisland/core/admin';
import { createDb, type Db, ensureTable } from '@mathisland/core/db';
import { type DynamoLocal, startDynamoLocal } from '../packages/local/src/dynamo';
import { endpointFile } from '../packages/local/src/stack';

if (existsSync('.env')) process.loadEnvFile('.env');

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

function ask(question: string, hidden: boolean): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    if (hidden) {
      // Echo the question only, never the typed characters.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.startsWith(question)) process.stdout.write(question);
      };
    }
    rl.question(question, (answer) => {
      rl.close();
      if (hidden) process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function firstStdinLine(): Promise<string> {
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}

async function password(): Promise<string> {
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) return firstStdinLine();
  const first = await ask(`Password (at least ${MIN_PASSWORD_LENGTH} characters): `, true);
  const again = await ask('Password (again): ', true);
  if (first !== again) throw new DomainError('validation_error', 'The passwords differ');
  return first;
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

async function openTable(): Promise<{ db: Db; where: string; dynamo?: DynamoLocal }> {
  const settings = loadSettings();
  if (settings.dynamodbEndpoint) {
    return { db: createDb({ tableName: settings.tableName, endpoint: settings.dynamodbEndpoint }), where: settings.dynamodbEndpoint };
  }
  if (args.includes('--aws')) return { db: createDb({ tableName: settings.tableName }), where: `AWS table ${settings.tableName}` };
  const file = endpointFile(settings.dataDir);
  if (existsSync(file)) {
    const running = JSON.parse(readFileSync(file, 'utf8')) as { endpoint: string; tableName: string };
    if (await localAnswers(running.endpoint)) {
      return {
        db: createDb({ tableName: running.tableName, endpoint: running.endpoint }),
        where: `the running npm start (${settings.dataDir})`,
      };
    }
  }
  const dynamo = await startDynamoLocal({ dbPath: join(settings.dataDir, 'dynamodb') });
  const db = createDb({ tableName: settings.tableName, endpoint: dynamo.endpoint });
  await ensureTable(db);
  return { db, where: `the local data in ${settings.dataDir}`, dynamo };
}

let opened: Awaited<ReturnType<typeof openTable>> | undefined;
try {
  const username = flag('username') ?? process.env.ADMIN_USERNAME ?? (process.stdin.isTTY ? await ask('Username: ', false) : '');
  if (!username) throw new DomainError('validation_error', 'Give a username: --username <name> or ADMIN_USERNAME');
  const secret = await password();
  opened = await openTable();
  const staff = await createStaff(opened.db, systemClock, { username, password: secret, isSuperuser: true });
  console.log(`Superuser ${staff.username} created in ${opened.where}. Sign in with POST /api/admin/login.`);
} catch (error) {
  if (error instanceof DomainError) {
    console.error(`createsuperuser: ${error.detail}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  opened?.db.raw.destroy();
  await opened?.dynamo?.stop();
}
