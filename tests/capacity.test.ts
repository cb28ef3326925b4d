/**
 * The capacity model in CI (issue 30; docs/capacity.md): the same simulation as `npm run capacity`, with small
 * samples (12 learners through a school day, 40 through the surge), through the real domain code against this run's
 * DynamoDB Local, analysed at 3,000,000 learners. It must pass (every key at most half of DynamoDB's limits, the
 * board-snapshot job within half its timeout and memory) as the code is, and fail (exit code 1, the hot patterns named) on the same run analysed as if nothing were sharded: the
 * model can see what the sharding fixes. The whole file stays under two minutes.
 */
import { describe, expect, inject, it } from 'vitest';
import { analyse, exitCodeOf } from '../scripts/lib/capacity/model';
import { renderRun } from '../scripts/lib/capacity/report';
import { simulate } from '../scripts/lib/capacity/simulate';

describe('npm run capacity at 3,000,000 learners', () => {
  it('drives learners through the domain, keeps every key under half its limits, and names the hot keys sharding removed', {
    timeout: 120_000,
  }, async () => {
    const started = performance.now();
    const sim = await simulate(inject('dynamodbEndpoint'), { daySample: 12, surgeSample: 40, workers: 4, concurrency: 12 });

    // The learners went through the real code: answers, grants, board reads, the snapshot job.
    const operations = new Set(sim.recorder.requests.filter((r) => r.origin === 'learner').map((r) => r.operation));
    expect([...operations].sort()).toEqual(expect.arrayContaining(['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem']));
    expect(sim.jobRuns.day + sim.jobRuns.surge).toBeGreaterThan(0);

    const sharded = analyse(sim, 3_000_000);
    expect(sharded.hot.map((r) => `${r.pattern}: ${r.over.join(', ')}`)).toEqual([]);
    expect(exitCodeOf([sharded])).toBe(0);
    // What DynamoDB reported is what the model attributed to keys.
    expect(Math.abs(sharded.check.attributed - sharded.check.reported)).toBeLessThan(0.01 * sharded.check.reported);
    expect(sharded.cost.total).toBeGreaterThan(0);
    // The board-snapshot job read crowded values at the target, within half its timeout and memory.
    expect(sharded.job.entries).toBeGreaterThan(0);
    expect(sharded.job.over).toEqual([]);
    expect(sharded.job.seconds).toBeLessThan(sharded.job.timeoutSeconds / 2);

    const unsharded = analyse(sim, 3_000_000, { unsharded: true });
    expect(exitCodeOf([unsharded])).toBe(1);
    expect(unsharded.hot.map((r) => r.pattern)).toEqual(
      expect.arrayContaining(['BOARDXP#<board>#<shard> (XP histogram)', 'gsi1 BOARD#<board>#<xp>#<tie shard> (tie index)']),
    );
    const histogram = unsharded.hot.find((r) => r.pattern.startsWith('BOARDXP')) as (typeof unsharded.hot)[number];
    expect(histogram.over).toContain('transactions in flight on one item');

    const report = renderRun(sim, [sharded, unsharded]);
    expect(report).toContain('every key at most half of its limits');
    expect(report).toMatch(/Monthly on-demand cost: .*\*\*\$[\d,]+\.\d\d\*\*/);
    expect((performance.now() - started) / 1000).toBeLessThan(120);
  });
});
