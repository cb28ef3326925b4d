/**
 * The business part of the Monitoring stack (issue 30 §4): the service's own metrics (infra/metrics.ts, counted by
 * packages/core/src/metrics.ts with Powertools Metrics in EMF) on the stage's dashboard, and two alarms on them.
 * Every metric here is built from the manifest (its name, its dimensions, every value of each), so the dashboard
 * cannot graph a metric or a dimension the code does not emit.
 *
 * | alarm | metric | fires when |
 * |---|---|---|
 * | `tutor-refusals` | `TutorOutcomes` refusals (the gate's and the model's) over all outcomes | above 30 % in 2 fifteen-minute periods in a row with at least 30 questions each: a gate or prompt change that refuses children's math, or a wave of off-topic use |
 * | `transaction-conflicts` | `TransactionConflictRetries` over the answers and completions (the learning transactions) | above 10 % in 2 of 3 five-minute periods with at least 100 of them: a hot item the sharding no longer spreads (docs/capacity.md) |
 *
 * Widgets (below those of serviceDashboard.ts): answers and completions; purchases by provider and refunds; tutor
 * outcomes by stage and the refusal share; throttled requests by scope (a search over the scopes that occurred:
 * infra/routes/throttleScopes.ts has dozens); TransactionConflict retries and their share.
 */
import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  ComparisonOperator,
  type Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import {
  type BusinessMetric,
  dimensionValues,
  METRICS_SERVICE,
  type MetricDimensions,
  metricDimensions,
  metricNamespace,
  tutorOutcomes,
} from '../../infra/metrics';
import { type MonitoringKit, PERIOD } from './kit';

const TUTOR_PERIOD = Duration.minutes(15);

/** One count of the manifest as CloudWatch names it: the stage's namespace, `service` and `dimensions`; its Sum. */
export const businessMetric = <M extends BusinessMetric>(
  stage: string,
  metric: M,
  dimensions: MetricDimensions<M>,
  options: { label?: string; period?: Duration } = {},
): Metric =>
  new Metric({
    namespace: metricNamespace(stage),
    metricName: metric,
    dimensionsMap: metricDimensions(metric, dimensions),
    statistic: 'Sum',
    period: options.period ?? PERIOD,
    ...(options.label ? { label: options.label } : {}),
  });

/** Adds the business widgets to `dashboard` (serviceDashboard.ts) and the two alarms to the kit's; returns the alarms. */
export function addBusinessMonitoring(kit: MonitoringKit, dashboard: Dashboard): Alarm[] {
  const { alarm } = kit;
  const stage = kit.app.stage;
  const count = <M extends BusinessMetric>(metric: M, dimensions: MetricDimensions<M>, label: string, period = PERIOD) =>
    businessMetric(stage, metric, dimensions, { label, period });

  const answers = dimensionValues.result.map((result) => count('Answers', { result }, `answers ${result}`));
  const completions = dimensionValues.kind.map((kind) => count('Completions', { kind }, `${kind}s completed`));
  const purchases = dimensionValues.provider.map((provider) => count('Purchases', { provider }, `paid: ${provider}`));
  const refunds = dimensionValues.by.map((by) => count('Refunds', { by }, `refunded by ${by}`));
  const outcomes = (period: Duration) => tutorOutcomes.map((o) => count('TutorOutcomes', o, `${o.outcome} (${o.stage})`, period));
  const conflicts = count('TransactionConflictRetries', {}, 'TransactionConflict retries');

  /**
   * `IF(total >= min, 100 * part / total, 0)`: `part` and `total` name metrics of `metrics` by id (an alarm reads at
   * most 10 metrics, so a metric in both is read once).
   */
  const share = (
    metrics: Record<string, Metric>,
    ids: { part: string[]; total: string[] },
    options: { min: number; label: string; period: Duration },
  ) => {
    const part = ids.part.join(' + ');
    const total = ids.total.join(' + ');
    return new MathExpression({
      expression: `IF((${total}) >= ${options.min}, 100 * (${part}) / (${total}), 0)`,
      usingMetrics: metrics,
      period: options.period,
      label: options.label,
    });
  };

  const tutorMetrics = Object.fromEntries(outcomes(TUTOR_PERIOD).map((m, i) => [`o${i}`, m]));
  const refusalShare = share(
    tutorMetrics,
    {
      part: tutorOutcomes.flatMap((o, i) => (o.outcome === 'refusal' ? [`o${i}`] : [])),
      total: Object.keys(tutorMetrics),
    },
    { min: 30, label: 'tutor refusals %', period: TUTOR_PERIOD },
  );
  /** Retries over the learning transactions (answers and completions), % (`min`: fewest transactions to judge). */
  const conflictShare = (min: number, label: string) => {
    const learning = [
      ...dimensionValues.result.map((result) => count('Answers', { result }, `answers ${result}`)),
      ...dimensionValues.kind.map((kind) => count('Completions', { kind }, `${kind}s completed`)),
    ];
    const metrics = {
      retries: count('TransactionConflictRetries', {}, 'retries'),
      ...Object.fromEntries(learning.map((m, i) => [`t${i}`, m])),
    };
    return share(metrics, { part: ['retries'], total: learning.map((_, i) => `t${i}`) }, { min, label, period: PERIOD });
  };

  const alarms = [
    alarm('TutorRefusals', 'tutor-refusals', {
      alarmDescription:
        'More than 30 % of tutor questions refused (gate or model) in 2 fifteen-minute periods with at least 30 questions: ' +
        "a change that refuses children's math, or a wave of off-topic use (docs/tutor.md)",
      metric: refusalShare,
      threshold: 30,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
    }),
    alarm('TransactionConflicts', 'transaction-conflicts', {
      alarmDescription:
        'More than 10 % of answers and completions retried after a TransactionConflict, with at least 100 of them: ' +
        'a hot item the write sharding no longer spreads (docs/capacity.md)',
      metric: conflictShare(100, 'conflict retries %'),
      threshold: 10,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    }),
  ];

  const throttledByScope = new MathExpression({
    expression: `SEARCH('{${metricNamespace(stage)},scope,service} MetricName="Throttled" service="${METRICS_SERVICE}"', 'Sum', ${PERIOD.toSeconds()})`,
    usingMetrics: {},
    period: PERIOD,
  });

  dashboard.addWidgets(
    new TextWidget({
      markdown: `## Learning, sales and the tutor\nThe service's own counts (namespace \`${metricNamespace(stage)}\`; infra/metrics.ts).`,
      width: 24,
      height: 2,
    }),
    new GraphWidget({ title: 'Answers and first completions', left: answers, right: completions, width: 12 }),
    new GraphWidget({ title: 'Orders paid by provider, refunds', left: purchases, right: refunds, width: 12 }),
    new GraphWidget({ title: 'Tutor outcomes by stage', left: outcomes(PERIOD), width: 12, stacked: true }),
    new GraphWidget({ title: 'Tutor refusals (% of questions, 15 min)', left: [refusalShare], width: 12 }),
    new GraphWidget({ title: 'Throttled requests (429) by scope', left: [throttledByScope], width: 12 }),
    new GraphWidget({
      title: 'TransactionConflict retries',
      left: [conflicts],
      right: [conflictShare(1, '% of answers and completions')],
      width: 12,
    }),
  );
  return alarms;
}
