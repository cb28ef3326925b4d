import { afterEach, describe, expect, it, vi } from 'vitest';
import { Slots } from './slots';

describe('Slots', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands out at most max leases and takes them back once', () => {
    const slots = new Slots(2);
    const a = slots.tryAcquire();
    const b = slots.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(slots.tryAcquire()).toBeUndefined();
    expect(slots.stats()).toEqual({ max: 2, inUse: 2 });
    a?.release();
    a?.release();
    expect(slots.stats()).toEqual({ max: 2, inUse: 1 });
    expect(slots.tryAcquire()).toBeDefined();
  });

  it('frees a slot after holdMs and tells the lease', () => {
    vi.useFakeTimers();
    const slots = new Slots(1, 40_000);
    const lease = slots.tryAcquire();
    const expired = vi.fn();
    if (lease) lease.onExpire = expired;
    vi.advanceTimersByTime(39_999);
    expect(slots.stats().inUse).toBe(1);
    vi.advanceTimersByTime(1);
    expect(slots.stats().inUse).toBe(0);
    expect(expired).toHaveBeenCalledOnce();
    lease?.release();
    expect(slots.stats().inUse).toBe(0);
  });
});
