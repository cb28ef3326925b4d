/**
 * The shape of a throttle ticket (ticket.ts), apart so that `deps.ts` can name it without importing what imports
 * `Deps` (no import loop).
 */
import type { ThrottleRule } from './rule';

/** One request's throttle hit, to be counted inside the route's own transaction (ticket.ts `transactCounting`). */
export interface ThrottleTicket {
  readonly scope: string;
  readonly subject: string;
  readonly rule: ThrottleRule;
  /** True once a transaction carrying the ticket committed: the request is counted. */
  counted: boolean;
}
