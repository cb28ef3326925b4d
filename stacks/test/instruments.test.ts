/**
 * Instruments (issue 30 §4): every function of the app traces to X-Ray (active tracing) with exactly the one IAM
 * exception it needs, and gets the namespace of its stage's business metrics; the stage's dashboard graphs every
 * metric of the manifest (infra/metrics.ts) with every value of its dimensions in that namespace, and two alarms read
 * the manifest's metrics: tutor refusals and TransactionConflict retries.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BusinessMetric,
  businessMetrics,
  dimensionValues,
  METRICS_SERVICE,
  metricNamespace,
  tutorOutcomes,
} from '../../infra/metrics';
import { tracingActions } from '../../infra/permissions';
import { appLambdas, baseStage, functionNameOf, grantedPairs, type Resource, resourcesOf, statementsOf, type Templates } from './support';

let base: Templates;
beforeAll(() => {
  ({ templates: base } = baseStage());
});

const NAMESPACE = metricNamespace('test');

/** Every function of the app, in every stack. */
const allFunctions = () =>
  Object.entries(base).flatMap(([stack, template]) => Object.values(appLambdas(template)).map((fn) => ({ stack, fn, template })));

/** The dashboard's body as text, with CloudFormation's references as `<ref>`. */
function dashboardBody(): string {
  const [dashboard] = Object.values(resourcesOf(base.Monitoring, 'AWS::CloudWatch::Dashboard'));
  const body = dashboard?.Properties.DashboardBody;
  if (typeof body === 'string') return body;
  return (body['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : '<ref>')).join('');
}

/** How a metric with `dimensions` (besides service) appears in a dashboard widget: namespace, name, then its dimensions by name. */
const widgetMetric = (metric: BusinessMetric, dimensions: Record<string, string>) =>
  JSON.stringify([
    NAMESPACE,
    metric,
    ...Object.entries({ ...dimensions, service: METRICS_SERVICE })
      .sort(([a], [b]) => a.localeCompare(b))
      .flat(),
  ]).slice(0, -1);

/** Every combination of the fixed dimensions of `metric` (not `scope`, which is searched). */
function combinations(metric: BusinessMetric): Record<string, string>[] {
  if (metric === 'TutorOutcomes') return tutorOutcomes.map((o) => ({ ...o }));
  const dims = businessMetrics[metric].dimensions as readonly string[];
  return dims.reduce<Record<string, string>[]>(
    (acc, d) => acc.flatMap((c) => (dimensionValues[d as keyof typeof dimensionValues] ?? []).map((v) => ({ ...c, [d]: v }))),
    [{}],
  );
}

const alarmNamed = (name: string): Resource => {
  const found = Object.values(resourcesOf(base.Monitoring, 'AWS::CloudWatch::Alarm')).find((a) => a.Properties.AlarmName === name);
  if (!found) throw new Error(`no alarm ${name}`);
  return found;
};
/** The alarm fires above `threshold` in `datapoints` of `periods` periods. */
const expectAbove = (a: Resource, rule: { threshold: number; periods: number; datapoints: number }) =>
  expect(a.Properties).toMatchObject({
    Threshold: rule.threshold,
    ComparisonOperator: 'GreaterThanThreshold',
    EvaluationPeriods: rule.periods,
    DatapointsToAlarm: rule.datapoints,
  });
const alarmMetrics = (a: Resource) =>
  (a.Properties.Metrics as any[])
    .filter((m) => m.MetricStat)
    .map((m) => ({
      namespace: m.MetricStat.Metric.Namespace,
      name: m.MetricStat.Metric.MetricName,
      dimensions: Object.fromEntries(
        (m.MetricStat.Metric.Dimensions as Array<{ Name: string; Value: string }>).map((d) => [d.Name, d.Value]),
      ),
      stat: m.MetricStat.Stat,
    }));

describe('tracing and metrics namespace', () => {
  it('traces every function of every stack with X-Ray (Active) and tells it its stage’s metrics namespace', () => {
    const functions = allFunctions();
    expect(functions.length).toBeGreaterThan(10);
    for (const { stack, fn } of functions) {
      const name = `${stack}/${functionNameOf(fn)}`;
      expect(fn.Properties.TracingConfig, name).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE, name).toBe(NAMESPACE);
    }
  });

  it('grants X-Ray’s two write actions on `*`, the one exception, to every function and nothing else on `*`', () => {
    for (const { stack, fn, template } of allFunctions()) {
      const onStar = grantedPairs(statementsOf(template, fn)).filter((g) => g.includes('*'));
      expect(onStar, `${stack}/${functionNameOf(fn)}`).toEqual(tracingActions.map((a) => `${a} on "*"`).sort());
    }
  });
});

describe('dashboard and alarms of the business metrics', () => {
  it('graphs every metric of the manifest with each value of its dimensions, in the stage namespace', () => {
    const body = dashboardBody();
    for (const metric of Object.keys(businessMetrics) as BusinessMetric[]) {
      if (metric === 'Throttled') continue;
      for (const dims of combinations(metric)) expect(body, `${metric} ${JSON.stringify(dims)}`).toContain(widgetMetric(metric, dims));
    }
    // Throttled by scope: a search over the scopes that occurred, in the namespace, for the service.
    expect(body).toContain(
      `SEARCH('{${NAMESPACE},scope,service} MetricName=\\"Throttled\\" service=\\"${METRICS_SERVICE}\\"', 'Sum', 300)`,
    );
    for (const title of [
      'Answers and first completions',
      'Orders paid by provider, refunds',
      'Tutor outcomes by stage',
      'TransactionConflict retries',
    ]) {
      expect(body).toContain(title);
    }
  });

  it('alarms when more than 30 % of the tutor’s questions are refused, over every outcome of the manifest', () => {
    const a = alarmNamed('mathisland-test-tutor-refusals');
    expectAbove(a, { threshold: 30, periods: 2, datapoints: 2 });
    const metrics = alarmMetrics(a);
    expect(metrics).toHaveLength(tutorOutcomes.length);
    for (const o of tutorOutcomes) {
      expect(metrics).toContainEqual({
        namespace: NAMESPACE,
        name: 'TutorOutcomes',
        dimensions: { service: METRICS_SERVICE, ...o },
        stat: 'Sum',
      });
    }
    const expression = (a.Properties.Metrics as any[]).find((m) => m.Expression).Expression as string;
    const ids = (a.Properties.Metrics as any[]).filter((m) => m.MetricStat);
    const refusals = ids.filter((m) => m.MetricStat.Metric.Dimensions.some((d: any) => d.Name === 'outcome' && d.Value === 'refusal'));
    expect(refusals).toHaveLength(2);
    expect(expression).toBe(
      `IF((${ids.map((m) => m.Id).join(' + ')}) >= 30, 100 * (${refusals.map((m) => m.Id).join(' + ')}) / (${ids.map((m) => m.Id).join(' + ')}), 0)`,
    );
  });

  it('alarms when more than 10 % of answers and completions were retried after a TransactionConflict', () => {
    const a = alarmNamed('mathisland-test-transaction-conflicts');
    expectAbove(a, { threshold: 10, periods: 3, datapoints: 2 });
    const metrics = alarmMetrics(a);
    expect(metrics.map((m) => `${m.name} ${JSON.stringify(m.dimensions)}`).sort()).toEqual(
      [
        `TransactionConflictRetries {"service":"${METRICS_SERVICE}"}`,
        ...dimensionValues.result.map((result) => `Answers {"result":"${result}","service":"${METRICS_SERVICE}"}`),
        ...dimensionValues.kind.map((kind) => `Completions {"kind":"${kind}","service":"${METRICS_SERVICE}"}`),
      ].sort(),
    );
    for (const m of metrics) expect(m).toMatchObject({ namespace: NAMESPACE, stat: 'Sum' });
    // And both alarms notify the stage's topic, like every other.
    const [topicId] = Object.keys(resourcesOf(base.Monitoring, 'AWS::SNS::Topic'));
    expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });
});
