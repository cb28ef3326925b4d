/**
 * The business metrics' emitter (metrics.ts) against its manifest (infra/metrics.ts): each count is one EMF line in
 * the namespace of POWERTOOLS_METRICS_NAMESPACE with exactly the manifest's dimensions and unit, counts never share a
 * line, and retryOptimistic counts each TransactionConflict it retries (and nothing else).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BusinessMetric, businessMetrics, dimensionValues, type MetricDimensions, tutorOutcomes } from '../../../infra/metrics';
import { retryOptimistic } from './db/conditions';
import { countEvent } from './metrics';

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }>;
  };
  [key: string]: unknown;
}

const lines: EmfLine[] = [];
const saved = { ...process.env };

beforeAll(() => {
  // The project turns the metrics off (vitest.config.ts); this file reads them. Set before the first count makes
  // its instance.
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_METRICS_NAMESPACE = 'mathisland/unit';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    const text = String(chunk);
    for (const line of text.split('\n').filter(Boolean)) {
      const parsed = JSON.parse(line) as EmfLine;
      if (parsed._aws) lines.push(parsed);
    }
    return true;
  });
});
afterAll(() => {
  vi.restoreAllMocks();
  process.env = saved;
});
beforeEach(() => {
  lines.length = 0;
});

/** One example of each metric's dimensions, from the manifest. */
const examples: { [M in BusinessMetric]: MetricDimensions<M> } = {
  Answers: { result: 'wrong' },
  Completions: { kind: 'island' },
  Purchases: { provider: 'marketplace' },
  Refunds: { by: 'store' },
  TutorOutcomes: { outcome: 'refusal', stage: 'gate' },
  Throttled: { scope: 'answer' },
  TransactionConflictRetries: {},
};

describe('countEvent', () => {
  it('writes one EMF line per count, in the stage namespace, with exactly the manifest’s dimensions and unit', () => {
    for (const [name, dimensions] of Object.entries(examples) as Array<[BusinessMetric, Record<string, string>]>) {
      countEvent(name, dimensions as never);
      expect(lines, name).toHaveLength(1);
      const [line] = lines.splice(0) as [EmfLine];
      const [directive] = line._aws.CloudWatchMetrics;
      expect(directive?.Namespace).toBe('mathisland/unit');
      expect(directive?.Metrics).toEqual([{ Name: name, Unit: businessMetrics[name].unit }]);
      expect(directive?.Dimensions).toEqual([['service', ...businessMetrics[name].dimensions]]);
      expect(line).toMatchObject({ service: 'mathisland', [name]: 1, ...dimensions });
    }
  });

  it('never carries one count’s dimensions into the next', () => {
    countEvent('Purchases', { provider: 'gateway' });
    countEvent('Purchases', { provider: 'free' });
    countEvent('Answers', { result: 'right' });
    expect(lines.map((l) => [l.provider, l.result])).toEqual([
      ['gateway', undefined],
      ['free', undefined],
      [undefined, 'right'],
    ]);
  });

  it('knows a stage for every tutor outcome and a value list for every fixed dimension', () => {
    for (const o of tutorOutcomes) {
      expect(dimensionValues.outcome).toContain(o.outcome);
      expect(dimensionValues.stage).toContain(o.stage);
    }
    for (const spec of Object.values(businessMetrics)) {
      for (const d of spec.dimensions) expect(d === 'scope' || d in dimensionValues, d).toBe(true);
    }
  });
});

describe('retryOptimistic', () => {
  const cancelled = (code: string) =>
    Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: code }] });

  it('counts each TransactionConflict it retries, and not a failed condition', async () => {
    const outcomes = [cancelled('TransactionConflict'), cancelled('ConditionalCheckFailed'), cancelled('TransactionConflict')];
    const result = await retryOptimistic(
      async () => {
        const next = outcomes.shift();
        if (next) throw next;
        return 'done';
      },
      () => undefined,
    );
    expect(result).toBe('done');
    expect(lines.map((l) => l._aws.CloudWatchMetrics[0]?.Metrics[0]?.Name)).toEqual([
      'TransactionConflictRetries',
      'TransactionConflictRetries',
    ]);
  });
});
