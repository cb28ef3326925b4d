/**
 * Concurrency slots of the tutor (spec Limits: "Assistant concurrent answers: 12 per worker
 * (AI_MAX_CONCURRENT_PER_WORKER); an answer may hold a slot up to about 40 s"; spec Errors: slots full → 503
 * `assistant_busy` with Retry-After, before any quota is reserved).
 *
 * A counting semaphore in memory, one per worker (per Lambda instance, per local process): `tryAcquire` never
 * waits. A lease is released when the answer ends (its `release`, idempotent) or by its timer after
 * `holdMs` at the latest, whichever comes first; the timer also calls the lease's `onExpire` (the tutor aborts
 * the model call there). Timers are unref'd so they never keep a process alive.
 */

/** How long an answer may hold a slot, ms (spec: about 40 s). */
export const SLOT_HOLD_MS = 40_000;

export interface SlotLease {
  /** Gives the slot back; later calls do nothing. */
  release(): void;
  /** Called once if the lease runs out before `release` (then the slot is already free). */
  onExpire?: () => void;
}

export interface SlotStats {
  /** Slots of this worker (AI_MAX_CONCURRENT_PER_WORKER). */
  max: number;
  /** Slots held now. */
  inUse: number;
}

export class Slots {
  private inUse = 0;
  constructor(
    readonly max: number,
    readonly holdMs: number = SLOT_HOLD_MS,
  ) {}

  /** A lease when a slot is free, else undefined (the caller answers 503 assistant_busy). */
  tryAcquire(): SlotLease | undefined {
    if (this.inUse >= this.max) return undefined;
    this.inUse++;
    let held = true;
    const lease: SlotLease = {
      release: () => {
        if (!held) return;
        held = false;
        clearTimeout(timer);
        this.inUse--;
      },
    };
    const timer = setTimeout(() => {
      if (!held) return;
      lease.release();
      lease.onExpire?.();
    }, this.holdMs);
    timer.unref?.();
    return lease;
  }

  stats(): SlotStats {
    return { max: this.max, inUse: this.inUse };
  }
}
