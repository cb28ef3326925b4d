/**
 * The table's alarms (stacks/Monitoring.ts has the table of all alarms): DynamoDB 5xx (SystemErrors), a spike of
 * 400s (UserErrors) and throttled reads or writes of the table or a GSI.
 */
import { ComparisonOperator, type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { tableActions } from '../../infra/permissions';
import { table as tableManifest } from '../../infra/table';
import { type MonitoringKit, PERIOD } from './kit';

/**
 * The DynamoDB API operations the service sends, whose SystemErrors are summed (at most 10 metrics in one alarm): the
 * item actions of infra/permissions.ts, with transactions as one operation (IAM authorizes their parts).
 */
export const tableOperations = [
  ...tableActions.filter((a) => a !== 'ConditionCheckItem' && a !== 'DescribeContinuousBackups'),
  'TransactWriteItems',
] as const;

/** The table's alarms; returns the throttle metrics (read and write of the table and of each GSI) for the dashboard. */
export function tableAlarms(kit: MonitoringKit, table: ITable): Record<string, IMetric> {
  const { alarm } = kit;
  alarm('TableSystemErrors', 'table-system-errors', {
    alarmDescription: 'DynamoDB answered 5xx (SystemErrors) to the service',
    metric: table.metricSystemErrorsForOperations({ operations: [...tableOperations] as never, period: PERIOD }),
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  });
  alarm('TableUserErrors', 'table-user-errors', {
    alarmDescription: 'A spike of DynamoDB 400s in this account and region (bad requests; AccessDenied when a permission is missing)',
    metric: table.metricUserErrors({ period: PERIOD, statistic: 'Sum' }),
    threshold: 10,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
  });
  const throttleMetrics: Record<string, IMetric> = {
    read: table.metric('ReadThrottleEvents', { period: PERIOD, statistic: 'Sum' }),
    write: table.metric('WriteThrottleEvents', { period: PERIOD, statistic: 'Sum' }),
  };
  for (const index of Object.keys(tableManifest.globalIndexes)) {
    const dimensionsMap = { TableName: table.tableName, GlobalSecondaryIndexName: index };
    for (const kind of ['Read', 'Write']) {
      throttleMetrics[`${kind.toLowerCase()}${index}`] = new Metric({
        namespace: 'AWS/DynamoDB',
        metricName: `${kind}ThrottleEvents`,
        dimensionsMap,
        statistic: 'Sum',
        period: PERIOD,
      });
    }
  }
  alarm('TableThrottles', 'table-throttles', {
    alarmDescription: 'DynamoDB throttled reads or writes of the table or a GSI',
    metric: new MathExpression({ expression: Object.keys(throttleMetrics).join(' + '), usingMetrics: throttleMetrics, period: PERIOD }),
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  });
  return throttleMetrics;
}
