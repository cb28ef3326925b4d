/**
 * `npm run createsuperuser [-- --username <name>] [-- --aws]`: creates an admin superuser (spec Authentication
 * 6; DESIGN §2), who can then sign in with `POST /api/admin/login` and holds every permission.
 *
 * Which table: `scripts/lib/localTable.ts` (DYNAMODB_ENDPOINT + TABLE_NAME; `--aws` for a deployed stage; otherwise
 * the running `npm start` of DATA_DIR, waited for while it is still starting, or DynamoDB Local started here on its
 * files when none runs); it says which table and endpoint it used.
 *
 * Username: `--username`, else ADMIN_USERNAME, else asked. Password (at least 10 characters): ADMIN_PASSWORD,
 * else asked twice on a terminal without echo, else the first line of stdin. Exits 1 with a message on any
 * refusal (taken username, short password).
 */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DomainError, loadSettings, systemClock } from '@mathisland/core';
import { createStaff, MIN_PASSWORD_LENGTH } from '@mathisland/core/admin';
import { closeTable, type OpenedTable, openTable, TableRefusal } from './lib/localTable';

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

let opened: OpenedTable | undefined;
try {
  const username = flag('username') ?? process.env.ADMIN_USERNAME ?? (process.stdin.isTTY ? await ask('Username: ', false) : '');
  if (!username) throw new DomainError('validation_error', 'Give a username: --username <name> or ADMIN_USERNAME');
  const secret = await password();
  opened = await openTable(loadSettings(), { script: 'createsuperuser', aws: args.includes('--aws') });
  const staff = await createStaff(opened.db, systemClock, { username, password: secret, isSuperuser: true });
  console.log(`Superuser ${staff.username} created in ${opened.where}. Sign in with POST /api/admin/login.`);
} catch (error) {
  if (error instanceof DomainError || error instanceof TableRefusal) {
    console.error(`createsuperuser: ${error instanceof DomainError ? error.detail : error.message}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await closeTable(opened);
}
