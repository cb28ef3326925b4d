/**
 * The DynamoDB client of a worker, with the spec's "database pool" (spec Limits; DESIGN §5, §11) and the
 * time budget of every call (docs/decisions.md "Time budgets"):
 *
 * - at most 8 requests in flight per worker; a request waits at most 10 s for a slot, then 503
 *   `database_busy` (Retry-After 10);
 * - each attempt: 1 s to connect, 4 s for the answer (the SDK's request timeout, made an error with
 *   `throwOnRequestTimeout`, and the socket idle timeout); 2 attempts in all (one SDK retry, with its
 *   backoff), so one call gives up after about 10 s of a stalled database, 10 s of waiting for a slot
 *   included at most 20 s;
 * - and never past the request's deadline (`../deadline.ts`: 28 s under API Gateway's 30 s): the wait for a slot
 *   is cut to what is left, and a call still running at the deadline is answered `database_busy` at once;
 * - a database that is down, refusing connections, stalled, failing (5xx), answering garbage or throttling
 *   (ProvisionedThroughputExceeded, ThrottlingException, RequestLimitExceeded, also as a transaction's
 *   cancellation reasons) becomes 503 `database_busy` with Retry-After {@link OUTAGE_RETRY_AFTER_SECONDS}, here
 *   and only here ({@link asDatabaseError}); the domain sees only its own errors, conditional-check failures and
 *   cancelled transactions, which it handles itself.
 *
 * The pool is an AWS SDK v3 middleware, so every command (including transactions) goes through it. It also
 * counts requests per operation, which `npm run bench` reads.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { remainingMs } from '../deadline';
import { commonErrors, DomainError } from '../errors';

export interface PoolOptions {
  /** Requests in flight at once (spec: max 8). */
  max: number;
  /** How long a request may wait for a slot, ms (spec: 10 s). */
  waitMs: number;
  /** How long one attempt may wait for DynamoDB's answer, ms (request and socket idle timeout). */
  requestTimeoutMs: number;
  /** How long one attempt may take to connect, ms. */
  connectTimeoutMs: number;
  /** Attempts per call, the first included (the SDK retries the rest with its backoff). */
  maxAttempts: number;
}

export const defaultPool: PoolOptions = { max: 8, waitMs: 10_000, requestTimeoutMs: 4_000, connectTimeoutMs: 1_000, maxAttempts: 2 };

/** Retry-After of a database outage (down, stalled, throttled), seconds. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** A counting semaphore with a bounded wait; rejects with `database_busy` when the wait runs out. */
export class Pool {
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(readonly options: Pick<PoolOptions, 'max' | 'waitMs'> & Partial<PoolOptions>) {}

  stats(): { max: number; inFlight: number; waiting: number } {
    return { max: this.options.max, inFlight: this.inFlight, waiting: this.waiters.length };
  }

  /** Takes a slot, waiting at most `waitMs` (default the pool's; the caller passes less near its deadline). */
  async acquire(waitMs = this.options.waitMs): Promise<void> {
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
      const timer = setTimeout(
        () => {
          const i = this.waiters.indexOf(grant);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(commonErrors.databaseBusy(Math.ceil(this.options.waitMs / 1000)));
        },
        Math.max(0, waitMs),
      );
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

/** DynamoDB's throttling errors, as error names and as a cancelled transaction's reasons. */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);
/** Errors of a connection that failed or stalled (Node's codes, the SDK's names). */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
const UNAVAILABLE_NAMES = new Set(['TimeoutError', 'AbortError', 'InternalServerError', 'ServiceUnavailable', 'RequestTimeout']);

interface SdkError {
  name?: string;
  code?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
  CancellationReasons?: Array<{ Code?: string } | undefined>;
}

const outage = () => commonErrors.databaseBusy(OUTAGE_RETRY_AFTER_SECONDS);

/**
 * The error a DynamoDB call's failure becomes: 503 `database_busy` (Retry-After
 * {@link OUTAGE_RETRY_AFTER_SECONDS}) for an outage, the error itself otherwise (conditional-check failures,
 * cancelled transactions, validation errors: the domain's or a bug).
 */
export function asDatabaseError(error: unknown): unknown {
  if (error instanceof DomainError || typeof error !== 'object' || error === null) return error;
  const e = error as SdkError;
  const name = e.name ?? '';
  if (name === 'TransactionCanceledException') {
    const reasons = (e.CancellationReasons ?? []).map((r) => r?.Code ?? 'None');
    const throttled = reasons.some((r) => THROTTLING.has(r));
    const lostRace = reasons.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict');
    return throttled && !lostRace ? outage() : error;
  }
  if (THROTTLING.has(name) || UNAVAILABLE_NAMES.has(name) || NETWORK.has(e.code ?? '')) return outage();
  if (e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) return outage();
  if (e.$metadata && name === 'SyntaxError') return outage(); // an answer that is not DynamoDB's JSON
  return error;
}

/**
 * Builds the worker's client. `endpoint` points at DynamoDB Local; in AWS it is unset and the region and
 * credentials come from the Lambda environment.
 */
export function createDb(options: { tableName: string; endpoint?: string; pool?: Partial<PoolOptions> }): Db {
  const poolOptions: PoolOptions = { ...defaultPool, ...options.pool };
  const raw = new DynamoDBClient({
    endpoint: options.endpoint,
    region: process.env.AWS_REGION ?? 'local',
    ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    requestHandler: new NodeHttpHandler({
      connectionTimeout: poolOptions.connectTimeoutMs,
      requestTimeout: poolOptions.requestTimeoutMs,
      socketTimeout: poolOptions.requestTimeoutMs,
      throwOnRequestTimeout: true,
    }),
    maxAttempts: poolOptions.maxAttempts,
  });
  const pool = new Pool(poolOptions);
  const requests = new RequestCounter();
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const left = remainingMs();
      if (left !== undefined && left <= 0) throw outage();
      await pool.acquire(left === undefined ? poolOptions.waitMs : Math.min(poolOptions.waitMs, left));
      requests.record(String(context.commandName ?? 'unknown').replace(/Command$/, ''));
      const call = next(args);
      // The slot is held until DynamoDB answers (or the SDK gives up), even when the caller stopped waiting.
      call.then(
        () => pool.release(),
        () => pool.release(),
      );
      try {
        return await untilDeadline(call);
      } catch (error) {
        throw asDatabaseError(error);
      }
    },
    { step: 'initialize', name: 'mathislandPool' },
  );
  const doc = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return { doc, raw, tableName: options.tableName, pool, requests };
}

/** `call`, or `database_busy` when the request's deadline comes first. */
function untilDeadline<T>(call: Promise<T>): Promise<T> {
  const left = remainingMs();
  if (left === undefined) return call;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(outage()), Math.max(0, left));
  });
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer));
}
