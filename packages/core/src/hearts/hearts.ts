/**
 * Hearts (spec "Progress"; issue 3 §1). At most `max` (5). A wrong answer costs one; one heart comes back
 * every HEART_REFILL_SECONDS (4 hours) up to the maximum. Nothing runs on a timer: the current count is
 * derived from the stored count and the time it was stored.
 */
import type { Settings } from '../config/settings';

export interface StoredHearts {
  hearts: number;
  /** Epoch ms when `hearts` was stored (the refill clock starts there). */
  heartsUpdatedAt: number;
}

export interface HeartsNow {
  hearts: number;
  maxHearts: number;
  enforced: boolean;
  /** Epoch ms when the next heart comes back, or null when full (or not enforced). */
  nextHeartAt: number | null;
  /** The stored pair that represents this state (refill applied), for the next conditional write. */
  stored: StoredHearts;
}

/** The hearts at `now` (epoch ms) from the stored pair. */
export function heartsAt(stored: StoredHearts, now: number, settings: Settings): HeartsNow {
  const { max, refillSeconds, enforced } = settings.hearts;
  const refillMs = refillSeconds * 1000;
  const base = Math.min(max, Math.max(0, stored.hearts));
  if (base >= max || !enforced) {
    return {
      hearts: enforced ? base : max,
      maxHearts: max,
      enforced,
      nextHeartAt: null,
      stored: { hearts: base, heartsUpdatedAt: stored.heartsUpdatedAt },
    };
  }
  const refills = Math.max(0, Math.floor((now - stored.heartsUpdatedAt) / refillMs));
  const hearts = Math.min(max, base + refills);
  if (hearts >= max) return { hearts, maxHearts: max, enforced, nextHeartAt: null, stored: { hearts, heartsUpdatedAt: now } };
  const since = stored.heartsUpdatedAt + refills * refillMs;
  return { hearts, maxHearts: max, enforced, nextHeartAt: since + refillMs, stored: { hearts, heartsUpdatedAt: since } };
}

/**
 * The stored pair after losing one heart at `now`: when the learner was full, the refill clock starts now;
 * otherwise it keeps running from where it was. Callers check `hearts > 0` first.
 */
export function afterLosingOne(current: HeartsNow, now: number): StoredHearts {
  const wasFull = current.hearts >= current.maxHearts;
  return { hearts: current.hearts - 1, heartsUpdatedAt: wasFull ? now : current.stored.heartsUpdatedAt };
}
