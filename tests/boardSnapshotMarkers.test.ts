/**
 * The board-snapshot job's markers at crowded XP values (issue 30; core leaderboard/snapshot.ts): a value held by more
 * than MARKER_MIN_LEARNERS learners gets the tie place of every MARKER_EVERY-th of them, read from its tie shards. The
 * job reads CROWDED_VALUES_AT_ONCE such values at a time (one after the other, a run at 1,000,000 learners took over
 * half of the job's timeout: docs/capacity.md); the markers must come out the same as read one by one, and a learner's
 * rank through them must be exact.
 */
import {
  bulkLoadBoard,
  CROWDED_VALUES_AT_ONCE,
  MARKER_EVERY,
  MARKER_MIN_LEARNERS,
  OVERALL_BOARD,
  takeSnapshot,
} from '@mathisland/core/leaderboard';
import { describe, expect, it } from 'vitest';
import { useStack } from './support/stack';

const wednesday = Date.UTC(2026, 10, 18, 8, 30);

/** The XP value of the overall board's tie partition a Query reads (`BOARD#overall#<xp>#<shard>`), if it reads one. */
function tieValueOf(input: unknown): number | undefined {
  const values = Object.values((input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues ?? {});
  const partition = values.find((v): v is string => typeof v === 'string' && v.startsWith(`BOARD#${OVERALL_BOARD}#`));
  return partition === undefined ? undefined : Number(partition.split('#')[2]);
}

describe('the snapshot of a board with many crowded XP values', () => {
  const stack = useStack({ now: wednesday });

  it('reads several crowded values at a time and keeps every 500th tie place of each, in tie order', { timeout: 120_000 }, async () => {
    const db = stack.deps.db;
    const now = stack.clock.now();
    // Ten crowded values (just over the threshold) and three quiet ones; reachedAt repeats, so ties break by user id.
    const crowdedXps = Array.from({ length: 10 }, (_, i) => 100 + 5 * i);
    const standings = [
      ...crowdedXps.flatMap((xp, v) =>
        Array.from({ length: MARKER_MIN_LEARNERS + 1 + v }, (_, i) => ({
          userId: 7_000_000 + v * 10_000 + ((i * 7919) % (MARKER_MIN_LEARNERS + 1 + v)),
          publicId: `User${7_000_000 + v * 10_000 + i}`,
          xp,
          reachedAt: now - 3_600_000 + Math.floor(i / 3) * 1000,
        })),
      ),
      ...[20, 30, 40].map((xp, i) => ({ userId: 8_000_000 + i, publicId: `User${8_000_000 + i}`, xp, reachedAt: now - 60_000 })),
    ];
    await bulkLoadBoard(db, OVERALL_BOARD, standings);

    // How many crowded values have a tie Query in flight at once.
    const inFlight = new Map<number, number>();
    let peak = 0;
    const name = 'count-tie-reads';
    db.doc.middlewareStack.add(
      (next) => async (args) => {
        const xp = tieValueOf(args.input);
        const crowded = xp !== undefined && crowdedXps.includes(xp);
        if (crowded) {
          inFlight.set(xp, (inFlight.get(xp) ?? 0) + 1);
          peak = Math.max(peak, inFlight.size);
        }
        try {
          return await next(args);
        } finally {
          if (crowded) {
            const left = (inFlight.get(xp) ?? 1) - 1;
            if (left === 0) inFlight.delete(xp);
            else inFlight.set(xp, left);
          }
        }
      },
      { step: 'initialize', name },
    );
    let snapshot: Awaited<ReturnType<typeof takeSnapshot>>;
    try {
      snapshot = await takeSnapshot(db, OVERALL_BOARD, now);
    } finally {
      db.doc.middlewareStack.remove(name);
    }
    // Several values at once (one after the other before), never more than CROWDED_VALUES_AT_ONCE; the worker's
    // database pool (8 requests in flight, 4 a value) bounds it further.
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(CROWDED_VALUES_AT_ONCE);

    // Every crowded value's markers, as the tie order gives them; none for the quiet ones.
    expect(Object.keys(snapshot.data.markers).map(Number).sort()).toEqual(crowdedXps);
    for (const xp of crowdedXps) {
      const order = standings
        .filter((s) => s.xp === xp)
        .sort((a, b) => a.reachedAt - b.reachedAt || a.userId - b.userId)
        .map((s) => [s.reachedAt, s.userId]);
      const expected = order.filter((_, i) => (i + 1) % MARKER_EVERY === 0);
      expect(snapshot.data.markers[String(xp)], `markers at ${xp}`).toEqual(expected);
      expect(expected).toHaveLength(4);
    }
    expect(snapshot.count(125)).toBe(MARKER_MIN_LEARNERS + 6);

    // A value that cannot be read fails the snapshot, and the values not yet started are not read.
    // The second value in histogram order (the first fills the top alone, so it is read before the markers too).
    const failing = crowdedXps.at(-2);
    const read = new Set<number>();
    const refuse = 'refuse-one-value';
    db.doc.middlewareStack.add(
      (next) => async (args) => {
        const xp = tieValueOf(args.input);
        if (xp !== undefined && crowdedXps.includes(xp)) read.add(xp);
        if (xp === failing) throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
        return next(args);
      },
      { step: 'initialize', name: refuse },
    );
    try {
      await expect(takeSnapshot(db, OVERALL_BOARD, now)).rejects.toThrow(); // as the client reports a throttled read: database_busy
      await new Promise((resolve) => setTimeout(resolve, 500)); // what was started ends
    } finally {
      db.doc.middlewareStack.remove(refuse);
    }
    // The first 8 in histogram order were started, and the next in the failed one's place (p-limit starts it before
    // the failure reaches the snapshot); the last never is.
    expect(read.size).toBeLessThanOrEqual(CROWDED_VALUES_AT_ONCE + 1);
    expect(read.has(crowdedXps[0] as number)).toBe(false);
  });
});
