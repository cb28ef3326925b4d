/**
 * The service's alarms (stacks/Monitoring.ts has the table of all alarms): per endpoint group its 5xx rate and Lambda
 * throttles, the API stage's 5xx rate, and the tutor's errors.
 */
import { ComparisonOperator, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { endpointGroups } from '../../infra/routes';
import { http5xxMetric } from '../service';
import { type GroupFunction, type MonitoringKit, PERIOD } from './kit';

/** A metric of the API stage (`Count`, `4xx`, `5xx`, `Latency`), summed over {@link PERIOD}. */
export const apiMetricOf = (httpApiId: string) => (metricName: string) =>
  new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: { ApiId: httpApiId, Stage: '$default' },
    statistic: 'Sum',
    period: PERIOD,
  });

/** `<group>-5xx` and `<group>-throttles` for every endpoint group. Errors: a group without a function. */
export function endpointGroupAlarms(kit: MonitoringKit): void {
  const { alarm, app, groupFunctions } = kit;
  for (const group of endpointGroups) {
    const fn = groupFunctions[group];
    if (!fn) throw new Error(`Monitoring: no function for endpoint group ${group}`);
    alarm(`${group}Http5xx`, `${group}-5xx`, {
      alarmDescription: `More than 5 % of ${group}'s requests answered 5xx or failed (crash, timeout), with at least 5 requests`,
      metric: new MathExpression({
        expression: 'IF(inv >= 5, 100 * (http5xx + errors) / inv, 0)',
        usingMetrics: {
          http5xx: http5xxMetric(app.stage, group, PERIOD),
          errors: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
          inv: fn.metricInvocations({ period: PERIOD, statistic: 'Sum' }),
        },
        period: PERIOD,
        label: `${group} 5xx %`,
      }),
      threshold: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
    alarm(`${group}Throttles`, `${group}-throttles`, {
      alarmDescription: `Lambda throttled ${group} (no concurrency left): callers were refused`,
      metric: fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }
}

/** `api-5xx`: the API stage's 5xx rate, whatever the cause (integration timeouts included). */
export function apiAlarm(kit: MonitoringKit, apiMetric: (metricName: string) => Metric): void {
  kit.alarm('Api5xx', 'api-5xx', {
    alarmDescription: 'More than 5 % of the API stage’s requests answered 5xx (any cause, integration timeouts included)',
    metric: new MathExpression({
      expression: 'IF(requests >= 10, 100 * errors / requests, 0)',
      usingMetrics: { errors: apiMetric('5xx'), requests: apiMetric('Count') },
      period: PERIOD,
      label: 'API 5xx %',
    }),
    threshold: 5,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
}

/** `tutor-errors`: failed invocations of the streamed tutor (a stream cut after its first byte) and its URL's 5xx. */
export function tutorAlarm(kit: MonitoringKit, tutor: GroupFunction): void {
  kit.alarm('TutorErrors', 'tutor-errors', {
    alarmDescription: 'The tutor failed: invocations that errored (a stream cut after its first byte) or 5xx from its function URL',
    metric: new MathExpression({
      expression: 'errors + url5xx',
      usingMetrics: {
        errors: tutor.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        url5xx: tutor.metric('Url5xxCount', { period: PERIOD, statistic: 'Sum' }),
      },
      period: PERIOD,
      label: 'tutor errors',
    }),
    threshold: 3,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
}
