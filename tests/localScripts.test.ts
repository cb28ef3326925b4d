/**
 * The management scripts on a data directory (issue 29 §2, §3): `npm run createsuperuser` and the `job:*` scripts
 * find the `npm start` of DATA_DIR through `DATA_DIR/stack.json`, wait for one still starting instead of starting a
 * second DynamoDB Local on the same files, say which table and endpoint they used, and warn plainly when no stack
 * runs (they then start their own DynamoDB Local on DATA_DIR). State a crashed `npm start` left does not block them.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NPM_START, readStackState, type StackState, stackStateFile } from '../packages/local/src/dataDirState';
import { startLocalStack } from '../packages/local/src/stack';
import { call, useStack } from './support/stack';

const newDataDir = () => mkdtempSync(join(tmpdir(), 'mathisland-scripts-'));

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** Runs `scripts/<file>` with tsx on `dataDir` (no DYNAMODB_ENDPOINT), `env` added; both streams collected. */
function runScript(file: string, args: string[], dataDir: string, env: Record<string, string> = {}): Run {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', ...env };
  delete childEnv.DYNAMODB_ENDPOINT;
  const child = spawn('node_modules/.bin/tsx', [`scripts/${file}`, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, output: () => output, exit };
}

const writeState = (dataDir: string, state: StackState) => writeFileSync(stackStateFile(dataDir), JSON.stringify(state));

describe('createsuperuser while npm start is still starting on the same DATA_DIR', () => {
  const stack = useStack();

  it('waits for it, then writes to its table (no second DynamoDB Local on the same files)', async () => {
    const dataDir = newDataDir();
    const since = Date.now();
    // An npm start (this process stands in for it) that has claimed DATA_DIR and is still starting.
    writeState(dataDir, { owner: NPM_START, pid: process.pid, state: 'starting', since });
    const password = `pw-${randomUUID()}`;
    const run = runScript('createsuperuser.ts', ['--username', 'Waiter'], dataDir, { ADMIN_PASSWORD: password });
    await expect.poll(run.output, { timeout: 30_000 }).toMatch(/npm start \(pid \d+\) is still starting on .*; waiting for it/);
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);

    // Now it is running: the script goes on, on its table.
    writeState(dataDir, {
      owner: NPM_START,
      pid: process.pid,
      state: 'running',
      since: Date.now(),
      endpoint: stack.deps.settings.dynamodbEndpoint as string,
      tableName: stack.deps.db.tableName,
    });
    expect(await run.exit, run.output()).toBe(0);
    expect(run.output()).toContain(
      `using table ${stack.deps.db.tableName} at ${stack.deps.settings.dynamodbEndpoint}, the running npm start (pid ${process.pid})`,
    );
    expect(run.output()).toContain('Superuser waiter created');
    expect(run.output()).not.toContain('WARNING');
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
    const login = await call(stack, 'POST', '/api/admin/login', { body: { username: 'waiter', password } });
    expect(login.status).toBe(200);
  });
});

describe('the job scripts and npm start on one DATA_DIR', () => {
  const dataDir = newDataDir();
  const tableName = `test-${randomUUID()}`;
  let started: Awaited<ReturnType<typeof startLocalStack>> | undefined;
  afterAll(async () => {
    await started?.close();
  });

  it('are found through DATA_DIR: the jobs name the npm start, its table and endpoint; stopping it clears the state', async () => {
    started = await startLocalStack({
      port: 0,
      env: { DATA_DIR: dataDir, TABLE_NAME: tableName, SECRET_KEY: randomBytes(32).toString('hex'), STAGE: 'test' },
    });
    const state = readStackState(dataDir);
    expect(state).toMatchObject({ owner: NPM_START, pid: process.pid, state: 'running', tableName, dynamoPid: expect.any(Number) });
    const endpoint = state?.endpoint as string;
    const env = { SECRET_KEY: started.deps.settings.secretKey as string, TABLE_NAME: 'not-this-one' };

    const renewal = runScript('job-marketplace-renewal.ts', [], dataDir, env);
    expect(await renewal.exit, renewal.output()).toBe(0);
    expect(renewal.output()).toContain(
      `using table ${tableName} at ${endpoint}, the running npm start (pid ${process.pid}) of DATA_DIR ${dataDir}`,
    );
    expect(renewal.output()).toMatch(/Marketplace renewal on table .*: \{.*"renewed":0/);

    const recheck = runScript('payment-recheck.ts', [], dataDir, env);
    expect(await recheck.exit, recheck.output()).toBe(0);
    expect(recheck.output()).toContain(`job:payment-recheck: using table ${tableName} at ${endpoint}, the running npm start`);
    expect(recheck.output()).toContain('"settled"');

    await started.close();
    started = undefined;
    expect(existsSync(stackStateFile(dataDir))).toBe(false);
  }, 180_000);
});

describe('a job script with no running stack', () => {
  it('refuses when it needs the stack (payment re-check)', async () => {
    const run = runScript('payment-recheck.ts', [], newDataDir());
    expect(await run.exit).toBe(1);
    expect(run.output()).toMatch(/job:payment-recheck: no running npm start found for DATA_DIR=.*: start it first/);
  });

  it('warns, starts its own DynamoDB Local on DATA_DIR, names it, and is not blocked by state a crash left', async () => {
    const dataDir = newDataDir();
    // An npm start killed with kill -9 left its state behind.
    const crashed = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeState(dataDir, { owner: NPM_START, pid: crashed, state: 'starting', since: Date.now() });
    const tableName = `test-${randomUUID()}`;
    const run = runScript('job-marketplace-renewal.ts', [], dataDir, {
      TABLE_NAME: tableName,
      SECRET_KEY: randomBytes(32).toString('hex'),
    });
    expect(await run.exit, run.output()).toBe(0);
    const output = run.output();
    expect(output).toContain(`replaced stale state: npm start (pid ${crashed}) is gone without removing it`);
    expect(output).toContain(`WARNING: no running npm start found for DATA_DIR=${dataDir}; started DynamoDB Local on`);
    expect(output).toContain('An npm start on another DATA_DIR does not see what this run does');
    expect(output).toMatch(new RegExp(`using table ${tableName} at http://127\\.0\\.0\\.1:\\d+, DynamoDB Local started by this run`));
    expect(output).toMatch(/"renewed":0/);
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(true);
    expect(existsSync(stackStateFile(dataDir))).toBe(false);
  }, 120_000);
});
