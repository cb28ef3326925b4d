/**
 * The stage's service dashboard (`mathisland-<stage>-service`, output `Dashboard`): the alarms' states, the API's
 * requests, errors and latency, each endpoint group's invocations, 5xx, p99 duration, errors and throttles, the
 * tutor, the table's capacity, errors and throttles, and the dead-letter queues.
 */
import { Duration } from 'aws-cdk-lib';
import { AlarmStatusWidget, Dashboard, GraphWidget, type IMetric, type Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { endpointGroups } from '../../infra/routes';
import { http5xxMetric } from '../service';
import { type GroupFunction, type MonitoringKit, PERIOD } from './kit';
import { tableOperations } from './tableAlarms';

export interface DashboardInputs {
  apiMetric: (metricName: string) => Metric;
  tutor: GroupFunction;
  table: ITable;
  /** The table's throttle metrics (tableAlarms.ts). */
  throttleMetrics: Record<string, IMetric>;
  /** The dead-letter queues' depths (deadLetterAlarms.ts). */
  dlqMetrics: IMetric[];
}

/** The dashboard of {@link MonitoringKit.alarms} and the service's metrics (see the module doc). */
export function serviceDashboard(kit: MonitoringKit, inputs: DashboardInputs): Dashboard {
  const { stack, app, name, alarms, groupFunctions } = kit;
  const { apiMetric, tutor, table: cdkTable, throttleMetrics, dlqMetrics } = inputs;
  const perGroup = (metric: (group: string) => IMetric) => endpointGroups.map((g) => metric(g));
  const dashboard = new Dashboard(stack, 'Dashboard', { dashboardName: name('service'), defaultInterval: Duration.hours(6) });
  dashboard.addWidgets(
    new AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 4 }),
    new GraphWidget({
      title: 'API requests and errors',
      left: [apiMetric('Count')],
      right: [apiMetric('4xx'), apiMetric('5xx')],
      width: 12,
    }),
    new GraphWidget({
      title: 'API latency (p50, p99)',
      left: [apiMetric('Latency').with({ statistic: 'p50' }), apiMetric('Latency').with({ statistic: 'p99' })],
      width: 12,
    }),
    new GraphWidget({
      title: 'Invocations per endpoint group',
      left: perGroup((g) => (groupFunctions[g] as GroupFunction).metricInvocations({ period: PERIOD, label: g })),
      width: 12,
    }),
    new GraphWidget({
      title: '5xx answers per endpoint group',
      left: perGroup((g) => http5xxMetric(app.stage, g as never, PERIOD)),
      width: 12,
    }),
    new GraphWidget({
      title: 'Duration p99 per endpoint group (ms)',
      left: perGroup((g) => (groupFunctions[g] as GroupFunction).metricDuration({ period: PERIOD, statistic: 'p99', label: g })),
      width: 12,
    }),
    new GraphWidget({
      title: 'Errors and throttles per endpoint group',
      left: perGroup((g) => (groupFunctions[g] as GroupFunction).metricErrors({ period: PERIOD, label: `${g} errors` })),
      right: perGroup((g) => (groupFunctions[g] as GroupFunction).metricThrottles({ period: PERIOD, label: `${g} throttles` })),
      width: 12,
    }),
    new GraphWidget({
      title: 'Tutor: answers, errors, URL 5xx',
      left: [tutor.metricInvocations({ period: PERIOD })],
      right: [tutor.metricErrors({ period: PERIOD }), tutor.metric('Url5xxCount', { period: PERIOD, statistic: 'Sum' })],
      width: 12,
    }),
    new GraphWidget({
      title: 'DynamoDB consumed capacity',
      left: [cdkTable.metricConsumedReadCapacityUnits({ period: PERIOD }), cdkTable.metricConsumedWriteCapacityUnits({ period: PERIOD })],
      width: 12,
    }),
    new GraphWidget({
      title: 'DynamoDB errors and throttles',
      left: [
        cdkTable.metricSystemErrorsForOperations({ operations: [...tableOperations] as never, period: PERIOD }),
        cdkTable.metricUserErrors({ period: PERIOD }),
      ],
      right: Object.values(throttleMetrics),
      width: 12,
    }),
    ...(dlqMetrics.length ? [new GraphWidget({ title: 'Dead-letter queues (messages)', left: dlqMetrics, width: 12 })] : []),
  );

  return dashboard;
}
