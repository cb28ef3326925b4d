/**
 * The deadline of the request being served (DESIGN §11: "every outbound call has a timeout, and the sum of
 * timeouts and retries stays under API Gateway's 30 s").
 *
 * The edge runs each invocation inside {@link withDeadline} (`packages/functions/src/lib/group.ts`: 28 s, or
 * less when the Lambda itself has less time left); every outbound call reads {@link remainingMs} and gives up
 * when the request's time is spent, whatever its own timeout: the database (`db/client.ts`, 503
 * `database_busy`), the sms provider, the payment gateway and the model (their 503 codes). Code running
 * outside a request (scripts, the migration job, the tutor's stream after its headers) has no deadline and
 * relies on each call's own timeout.
 *
 * The deadline travels with the async context (node:async_hooks AsyncLocalStorage), so no function signature
 * carries it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<{ deadline: number }>();

/** Runs `fn` with a deadline `budgetMs` from now (epoch ms clock of this process). */
export function withDeadline<T>(budgetMs: number, fn: () => Promise<T>): Promise<T> {
  return storage.run({ deadline: Date.now() + budgetMs }, fn);
}

/** Milliseconds left before the current request's deadline (≤ 0 once spent), or undefined outside a request. */
export function remainingMs(): number | undefined {
  const store = storage.getStore();
  return store ? store.deadline - Date.now() : undefined;
}

/**
 * The timeout an outbound call may use: its own `timeoutMs`, shortened to what is left of the request's
 * deadline (never below `floorMs`, so a call that starts just before the deadline fails fast instead of with 0).
 */
export function callTimeout(timeoutMs: number, floorMs = 1): number {
  const left = remainingMs();
  return left === undefined ? timeoutMs : Math.max(floorMs, Math.min(timeoutMs, left));
}
