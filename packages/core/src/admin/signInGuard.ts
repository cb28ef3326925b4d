/**
 * Staff sign-in that cannot be turned against the owner (DESIGN §12; issue 22 §3). Only failures count, in fixed
 * windows of {@link SIGN_IN_WINDOW_SECONDS}:
 *
 * - per (username, address): after {@link PAIR_FAILURE_LIMIT} failures from one address (an IPv6 /64), that address
 *   gets 429 `throttled` for that username until the window ends, its password not even checked. Other addresses
 *   and other usernames are untouched; a success from the address forgets its failures.
 * - per username, from every address: past {@link FREE_FAILURES} failures in the window, an attempt from an address
 *   that already failed for this username waits for the username's next slot: 2^(failures − FREE_FAILURES) seconds
 *   after the last failure, at most {@link MAX_DELAY_SECONDS}, one attempt per slot (429 with Retry-After until
 *   then). An address with no failure in the window ("fresh") is never delayed: a correct password from it passes
 *   however many failures others caused, so nobody can keep the owner out of the panel; a wrong one from it counts.
 *
 * The username key is the username exactly as sent (no trimming, no case folding: sign-in matches it exactly, and
 * accounts are stored lower case), so the failures of `Admin` or ` admin` never count against `admin`; and the
 * address is the viewer's (CloudFront-Viewer-Address), never a client's claim. Every count is a single conditional
 * update (DESIGN §11): a burst of parallel guesses cannot pass a limit. The per-address throttle scope
 * `admin_login` (infra/routes.ts) still bounds how often one address may call at all.
 */
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { adminErrors } from './errors';
import {
  type AttemptWindow,
  claimSlot,
  clearAttempts,
  countFailure,
  delayUntil,
  readFailures,
  releaseAttempt,
  reserveAttempt,
} from './signInAttempts.entity';

export const SIGN_IN_WINDOW_SECONDS = 3600;
/** Failures of one username from one address per window before that address is held off. */
export const PAIR_FAILURE_LIMIT = 10;
/** Failures of one username from all addresses per window before used addresses are slowed. */
export const FREE_FAILURES = 10;
/** The longest wait between two attempts of a slowed username, seconds. */
export const MAX_DELAY_SECONDS = 300;

/** Seconds an item outlives its window before TTL may delete it. */
const TTL_GRACE_SECONDS = 60;

/** The wait after the `failures`-th failure of a username in a window, ms (0 while under {@link FREE_FAILURES}). */
export const delayAfter = (failures: number): number =>
  failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_SECONDS, 2 ** (failures - FREE_FAILURES)) * 1000;

function windowAt(nowMs: number): AttemptWindow & { end: number } {
  const seconds = epochSeconds(nowMs);
  const start = seconds - (seconds % SIGN_IN_WINDOW_SECONDS);
  return { start, end: start + SIGN_IN_WINDOW_SECONDS, expiresAt: start + SIGN_IN_WINDOW_SECONDS + TTL_GRACE_SECONDS };
}

const heldOff = (nowMs: number, untilMs: number) => adminErrors.signInHeldOff(Math.max(1, Math.ceil((untilMs - nowMs) / 1000)));

/**
 * Runs `attempt` (the password check and the session's start; undefined for a wrong username, password or an
 * inactive account) for `username` from `address` under the limits above. Returns what it returned. Errors:
 * `throttled` (429, Retry-After) when held off (nothing checked); `not_authenticated` (401) when `attempt` failed,
 * after counting the failure; whatever `attempt` raises (the reservation is given back).
 */
export async function guardedSignIn<T>(deps: Deps, username: string, address: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const now = deps.clock.now();
  const window = windowAt(now);
  const attempts = await reserveAttempt(deps.db, username, address, window, PAIR_FAILURE_LIMIT);
  if (attempts === undefined) throw heldOff(now, window.end * 1000);
  if (attempts > 1) {
    // An address that failed for this username (or is trying in parallel) waits for the username's slot.
    const state = await readFailures(deps.db, username, window);
    const delay = delayAfter(state.failures);
    if (delay > 0) {
      const openAt = state.openAt ?? (state.lastFailureAt ?? now) + delay;
      const taken = openAt > now ? openAt : await claimSlot(deps.db, username, window, state.openAt, now + delay);
      if (taken !== undefined) {
        await releaseAttempt(deps.db, username, address, window);
        throw heldOff(now, taken);
      }
    }
  }
  let result: T | undefined;
  try {
    result = await attempt();
  } catch (error) {
    await releaseAttempt(deps.db, username, address, window);
    throw error;
  }
  if (result !== undefined) {
    await clearAttempts(deps.db, username, address, window);
    return result;
  }
  const failures = await countFailure(deps.db, username, window, now);
  const delay = delayAfter(failures);
  if (delay > 0) await delayUntil(deps.db, username, window, now + delay);
  throw adminErrors.loginFailed();
}
