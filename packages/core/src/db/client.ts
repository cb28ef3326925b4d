/**
 * The DynamoDB client of a worker, with the spec's "database pool" (spec Limits; DESIGN §5):
 * at most 8 requests in flight per worker, a request waits at most 10 s for a slot and then fails with
 * 503 `database_busy` (Retry-After), each request times out after 30 s.
 *
 * The pool is an AWS SDK v3 middleware, so every command (including transactions) goes through it. It also
 * counts requests per operation, which `npm run bench` reads.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { commonErrors } from '../errors';

export interface PoolOptions {
  /** Requests in flight at once (spec: max 8). */
  max: number;
  /** How long a request may wait for a slot, ms (spec: 10 s). */
  waitMs: number;
  /** Per-request timeout, ms (spec: statement timeout 30 000 ms). */
  requestTimeoutMs: number;
}

export const defaultPool: PoolOptions = { max: 8, waitMs: 10_000, requestTimeoutMs: 30_000 };

/** A counting semaphore with a bounded wait; rejects with `database_busy` when the wait runs out. */
export class Pool {
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(readonly options: PoolOptions) {}

  stats(): { max: number; inFlight: number; waiting: number } {
    return { max: this.options.max, inFlight: this.inFlight, waiting: this.waiters.length };
  }

  async acquire(): Promise<void> {
    if (this.inFlight < this.options.max) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        this.inFlight++;
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(commonErrors.databaseBusy(Math.ceil(this.options.waitMs / 1000)));
      }, this.options.waitMs);
      this.waiters.push(grant);
    });
  }

  release(): void {
    this.inFlight--;
    this.waiters.shift()?.();
  }
}

/** Requests sent, by DynamoDB operation name (GetItem, TransactWriteItems, ...). */
export class RequestCounter {
  readonly byOperation = new Map<string, number>();
  total = 0;
  record(operation: string): void {
    this.total++;
    this.byOperation.set(operation, (this.byOperation.get(operation) ?? 0) + 1);
  }
  reset(): void {
    this.total = 0;
    this.byOperation.clear();
  }
}

export interface Db {
  doc: DynamoDBDocumentClient;
  raw: DynamoDBClient;
  tableName: string;
  pool: Pool;
  requests: RequestCounter;
}

/**
 * Builds the worker's client. `endpoint` points at DynamoDB Local; in AWS it is unset and the region and
 * credentials come from the Lambda environment.
 */
export function createDb(options: { tableName: string; endpoint?: string; pool?: PoolOptions }): Db {
  const poolOptions = options.pool ?? defaultPool;
  const raw = new DynamoDBClient({
    endpoint: options.endpoint,
    region: process.env.AWS_REGION ?? 'local',
    ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    requestHandler: new NodeHttpHandler({ requestTimeout: poolOptions.requestTimeoutMs, connectionTimeout: 3_000 }),
    maxAttempts: 3,
  });
  const pool = new Pool(poolOptions);
  const requests = new RequestCounter();
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      await pool.acquire();
      requests.record(String(context.commandName ?? 'unknown').replace(/Command$/, ''));
      try {
        return await next(args);
      } finally {
        pool.release();
      }
    },
    { step: 'initialize', name: 'mathislandPool' },
  );
  const doc = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return { doc, raw, tableName: options.tableName, pool, requests };
}
