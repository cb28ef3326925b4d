/**
 * Failed conditions and optimistic concurrency, written once for every entity (DESIGN §5).
 *
 * A conditional write that loses (ConditionalCheckFailedException, or a TransactionCanceledException whose
 * reasons name a failed condition or a conflicting transaction) is the normal signal of a race: the caller
 * re-reads and decides again. {@link retryOptimistic} is that loop.
 */
import { DomainError } from '../errors';
import { countEvent } from '../metrics';

/** One reason per item of a cancelled transaction, in the order of its items (AWS: CancellationReasons). */
export type CancellationCode = 'None' | 'ConditionalCheckFailed' | 'TransactionConflict' | 'ItemCollectionSizeLimitExceeded' | string;

interface AwsConditionError {
  name?: string;
  CancellationReasons?: Array<{ Code?: string } | undefined>;
}

const asAws = (error: unknown): AwsConditionError => (typeof error === 'object' && error !== null ? (error as AwsConditionError) : {});

/**
 * The per-item reasons of a cancelled transaction (`'None'` for the items that were fine), or an empty list
 * for any other error.
 */
export function cancellationReasons(error: unknown): CancellationCode[] {
  const e = asAws(error);
  if (e.name !== 'TransactionCanceledException') return [];
  return (e.CancellationReasons ?? []).map((r) => r?.Code ?? 'None');
}

/** Indexes of the items whose condition failed in a cancelled transaction; empty for any other error. */
export function failedItems(error: unknown): number[] {
  return cancellationReasons(error).flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : []));
}

/**
 * True when a write lost a race: a failed condition on a single write, or a transaction cancelled by a failed
 * condition or by a conflicting transaction on one of its items.
 */
export function isConditionFailure(error: unknown): boolean {
  if (asAws(error).name === 'ConditionalCheckFailedException') return true;
  return cancellationReasons(error).some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict');
}

/** True when a transaction was cancelled because another transaction held one of its items (not a failed condition). */
export const isTransactionConflict = (error: unknown): boolean => cancellationReasons(error).includes('TransactionConflict');

/**
 * How long to wait before try `n + 1` after a TransactionConflict, ms: "full jitter" exponential back-off, a random
 * time up to 20 ms × 2^n (at most 640 ms), so that transactions that collided on a hot item do not collide again
 * (AWS: retry TransactionConflict with back-off). A failed condition is retried at once: the re-read decides.
 */
export const conflictBackoffMs = (n: number): number => Math.random() * 20 * 2 ** Math.min(n, 5);

/** What {@link retryOptimistic}'s `onConflict` returns: nothing to try again, or a final result. */
export type ConflictOutcome<T> = undefined | { result: T };

/** How many times an optimistic write is tried before giving up (then `busy`). */
export const MAX_OPTIMISTIC_ATTEMPTS = 8;

/** Raised after {@link MAX_OPTIMISTIC_ATTEMPTS} lost races in a row: 503 `database_busy`, retry in a second. */
export const tooManyConflicts = (): DomainError =>
  new DomainError('database_busy', 'Too many changes at once; try again shortly', { retryAfter: 1 });

/**
 * Optimistic concurrency: runs `attempt(n)` (n = 0, 1, ...) until it returns. When it throws a lost race
 * ({@link isConditionFailure}), `onConflict(error, n)` re-reads what changed: it returns `{ result }` to end
 * with that result (e.g. "someone else already completed it"), or nothing to run `attempt` again with the
 * state it reloaded. A transaction cancelled by a TransactionConflict waits {@link conflictBackoffMs} first (and is
 * counted: metric `TransactionConflictRetries`, infra/metrics.ts). Any other
 * error is rethrown at once.
 *
 * Errors: whatever `attempt` or `onConflict` raise; `busy()` (default 503 `database_busy`) after `attempts`
 * lost races.
 */
export async function retryOptimistic<T>(
  attempt: (n: number) => Promise<T>,
  onConflict: (error: unknown, n: number) => Promise<ConflictOutcome<T>> | ConflictOutcome<T>,
  options: { attempts?: number; busy?: () => Error } = {},
): Promise<T> {
  const attempts = options.attempts ?? MAX_OPTIMISTIC_ATTEMPTS;
  for (let n = 0; n < attempts; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (isTransactionConflict(error)) {
        countEvent('TransactionConflictRetries', {});
        await new Promise((resolve) => setTimeout(resolve, conflictBackoffMs(n)));
      }
      const outcome = await onConflict(error, n);
      if (outcome) return outcome.result;
    }
  }
  throw (options.busy ?? tooManyConflicts)();
}
