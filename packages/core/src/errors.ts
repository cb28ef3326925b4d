/**
 * The error type every domain raises. Each domain lists its codes in its own `errors.ts`; the HTTP status
 * is chosen only at the edge (`packages/functions/src/lib/errors.ts`), never here (DESIGN §2, §3).
 */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    /** Stable snake_case code, e.g. `node_locked`; the API's error body carries it as `code`. */
    readonly code: string,
    /** Human-readable detail, safe to show to the client. */
    readonly detail: string,
    readonly extra: {
      /** Per-field validation messages. */
      fields?: Record<string, string[]>;
      /** Seconds after which a retry may succeed (429/503). */
      retryAfter?: number;
      /** Why, when one code covers refusals of different kinds (the edge may choose the status by it). */
      reason?: string;
    } = {},
  ) {
    super(`${code}: ${detail}`);
  }
}

/** Shared codes raised by more than one domain. */
export const commonErrors = {
  notFound: (what: string) => new DomainError('not_found', `${what} not found`),
  validation: (detail: string, fields?: Record<string, string[]>) => new DomainError('validation_error', detail, { fields }),
  databaseBusy: (retryAfter: number) => new DomainError('database_busy', 'The database is busy; try again shortly', { retryAfter }),
};
