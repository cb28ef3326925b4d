import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { Pool } from './client';

describe('Pool', () => {
  it('lets at most max requests in flight and hands slots to waiters in order', async () => {
    const pool = new Pool({ max: 2, waitMs: 1000, requestTimeoutMs: 1000 });
    await pool.acquire();
    await pool.acquire();
    const order: number[] = [];
    const third = pool.acquire().then(() => order.push(3));
    const fourth = pool.acquire().then(() => order.push(4));
    expect(pool.stats()).toEqual({ max: 2, inFlight: 2, waiting: 2 });
    pool.release();
    await third;
    pool.release();
    await fourth;
    expect(order).toEqual([3, 4]);
  });

  it('gives up after waitMs with database_busy and a Retry-After', async () => {
    const pool = new Pool({ max: 1, waitMs: 20, requestTimeoutMs: 1000 });
    await pool.acquire();
    const error = await pool.acquire().catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'database_busy', extra: { retryAfter: 1 } });
    expect(pool.stats().waiting).toBe(0);
  });
});
