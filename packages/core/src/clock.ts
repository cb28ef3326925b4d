/**
 * Time source of the domain. Everything that depends on "now" takes a {@link Clock} from the dependencies
 * object, so tests can move time (heart refill, Tehran midnight, token expiry).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.now()) {}
  now(): number {
    return this.ms;
  }
  set(ms: number | Date): void {
    this.ms = typeof ms === 'number' ? ms : ms.getTime();
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** Epoch seconds of a millisecond time, for TTL attributes. */
export const epochSeconds = (ms: number): number => Math.floor(ms / 1000);
