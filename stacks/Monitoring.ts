/**
 * Monitoring: the stage's alarms and its CloudWatch dashboard. Every alarm notifies one SNS topic (and again when it
 * clears): ALARM_TOPIC_ARN when set (an existing on-call topic), else a topic created here, with ALARM_EMAIL
 * subscribed when given (stacks/config.ts). Alarm names are `mathisland-<stage>-<what>`.
 *
 * | alarm | metric | fires when |
 * |---|---|---|
 * | `<group>-5xx` per endpoint group | the group's 5xx request log lines (metric filter, stacks/service.ts) plus its Lambda `Errors` (crashes, timeouts: no log line), over its `Invocations` | above 5 % in 2 of 3 five-minute periods with at least 5 invocations |
 * | `<group>-throttles` per endpoint group | Lambda `Throttles` (concurrency exhausted: the caller got a 429/503 from AWS) | any in a five-minute period |
 * | `api-5xx` | API Gateway `5xx` over `Count` of the stage (also what never reached a function: integration timeouts) | above 5 % in 2 of 3 periods with at least 10 requests |
 * | `tutor-errors` | the tutor function's `Errors` (a stream cut after its first byte) and its URL's `Url5xxCount` | 3 or more in a period, 2 periods of 3 |
 * | `table-system-errors` | DynamoDB `SystemErrors` summed over the operations the service sends | any |
 * | `table-user-errors` | DynamoDB `UserErrors` of the account and region (400s: validation, and AccessDenied when a permission is missing) | 10 or more per period for 3 periods |
 * | `table-throttles` | the table's and its GSIs' read and write throttle events | any |
 * | `dlq-<queue>` per dead-letter queue | `ApproximateNumberOfMessagesVisible` | one message or more |
 * | `tutor-refusals`, `transaction-conflicts` | the service's own metrics (stacks/monitoring/dashboard.ts, with their widgets) | see there |
 *
 * Dead-letter queues: those passed to {@link Monitoring} by a stack registered before it, and every queue the app
 * uses as a dead-letter target (stacks/deadLetters.ts), e.g. the Jobs stack's. A DLQ in a stack registered after
 * Monitoring would have no alarm: the synthesis fails then (register Monitoring last in sst.config.ts).
 *
 * Outputs: `AlarmTopicArn`, `Dashboard` (its name).
 */
import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { type App, type StackContext, use } from 'sst/constructs';
import { tableActions } from '../infra/permissions';
import { endpointGroups } from '../infra/routes';
import { table as tableManifest } from '../infra/table';
import { Api } from './Api';
import { deployConfig } from './config';
import { type DeadLetterQueue, deadLetterQueuesOf } from './deadLetters';
import { addBusinessMonitoring } from './monitoring/dashboard';
import { Storage } from './Storage';
import { http5xxMetric } from './service';
import { Tutor } from './Tutor';

const PERIOD = Duration.minutes(5);

/**
 * The DynamoDB API operations the service sends, whose SystemErrors are summed (at most 10 metrics in one alarm): the
 * item actions of infra/permissions.ts, with transactions as one operation (IAM authorizes their parts).
 */
export const tableOperations = [
  ...tableActions.filter((a) => a !== 'ConditionCheckItem' && a !== 'DescribeContinuousBackups'),
  'TransactWriteItems',
] as const;

/** Dead-letter queues handed over by stacks registered before Monitoring (in addition to those discovered). */
const givenQueues: DeadLetterQueue[] = [];

/** Registers a dead-letter queue for an alarm (for a queue nothing points at yet, e.g. one a Lambda destination will use). */
export function watchDeadLetterQueue(queue: DeadLetterQueue): void {
  givenQueues.push(queue);
}

function alarmTopic(context: StackContext): ITopic {
  const { stack, app } = context;
  const { alarms } = deployConfig(app.stage);
  if (alarms.topicArn) return Topic.fromTopicArn(stack, 'AlarmTopic', alarms.topicArn);
  const topic = new Topic(stack, 'AlarmTopic', { displayName: `mathisland ${app.stage} alarms` });
  if (alarms.email) topic.addSubscription(new EmailSubscription(alarms.email));
  return topic;
}

/** A short, stable alarm name part for a queue: its construct path without the stack and `Resource`. */
const queueName = (dlq: DeadLetterQueue): string =>
  dlq.path
    .split('/')
    .slice(1)
    .filter((part) => part !== 'Resource')
    .join('-');

/** The DLQs of `app` (given and discovered), once each. */
function allDeadLetterQueues(app: App): DeadLetterQueue[] {
  const byPath = new Map<string, DeadLetterQueue>();
  for (const dlq of [...givenQueues, ...deadLetterQueuesOf(app)]) byPath.set(dlq.path, dlq);
  return [...byPath.values()];
}

export function Monitoring(context: StackContext) {
  const { stack, app } = context;
  const { api, functions } = use(Api);
  const { functions: streamed } = use(Tutor);
  const { table } = use(Storage);
  const topic = alarmTopic(context);
  const action = new SnsAction(topic);
  const alarms: Alarm[] = [];
  const name = (what: string) => `mathisland-${app.stage}-${what}`;

  const alarm = (id: string, what: string, props: Omit<ConstructorParameters<typeof Alarm>[2], 'alarmName'>) => {
    const created = new Alarm(stack, id, { alarmName: name(what), treatMissingData: TreatMissingData.NOT_BREACHING, ...props });
    created.addAlarmAction(action);
    created.addOkAction(action);
    alarms.push(created);
    return created;
  };

  const groupFunctions = { ...functions, ...streamed } as Record<string, (typeof functions)[keyof typeof functions]>;
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

  const apiMetric = (metricName: string) =>
    new Metric({
      namespace: 'AWS/ApiGateway',
      metricName,
      dimensionsMap: { ApiId: api.httpApiId, Stage: '$default' },
      statistic: 'Sum',
      period: PERIOD,
    });
  alarm('Api5xx', 'api-5xx', {
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

  const tutor = streamed.tutor;
  if (!tutor) throw new Error('Monitoring: the Tutor stack deploys no tutor function');
  alarm('TutorErrors', 'tutor-errors', {
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

  const cdkTable = table.cdk.table;
  alarm('TableSystemErrors', 'table-system-errors', {
    alarmDescription: 'DynamoDB answered 5xx (SystemErrors) to the service',
    metric: cdkTable.metricSystemErrorsForOperations({ operations: [...tableOperations] as never, period: PERIOD }),
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  });
  alarm('TableUserErrors', 'table-user-errors', {
    alarmDescription: 'A spike of DynamoDB 400s in this account and region (bad requests; AccessDenied when a permission is missing)',
    metric: cdkTable.metricUserErrors({ period: PERIOD, statistic: 'Sum' }),
    threshold: 10,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
  });
  const throttleMetrics: Record<string, IMetric> = {
    read: cdkTable.metric('ReadThrottleEvents', { period: PERIOD, statistic: 'Sum' }),
    write: cdkTable.metric('WriteThrottleEvents', { period: PERIOD, statistic: 'Sum' }),
  };
  for (const index of Object.keys(tableManifest.globalIndexes)) {
    const dimensionsMap = { TableName: cdkTable.tableName, GlobalSecondaryIndexName: index };
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

  const dlqMetrics: IMetric[] = [];
  const alarmedQueues = new Set<string>();
  for (const dlq of allDeadLetterQueues(app)) {
    alarmedQueues.add(dlq.path);
    const part = queueName(dlq);
    const depth = new Metric({
      namespace: 'AWS/SQS',
      metricName: 'ApproximateNumberOfMessagesVisible',
      dimensionsMap: { QueueName: dlq.queue.getAtt('QueueName').toString() },
      statistic: 'Maximum',
      period: PERIOD,
    });
    dlqMetrics.push(depth.with({ label: part }));
    alarm(`Dlq${part.replace(/[^A-Za-z0-9]/g, '')}`, `dlq-${part}`, {
      alarmDescription: `Messages in the dead-letter queue ${dlq.path}: a job or event failed every retry`,
      metric: depth,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }
  // A dead-letter queue added by a stack registered after this one would have no alarm.
  stack.node.addValidation({
    validate: () =>
      allDeadLetterQueues(app)
        .filter((dlq) => !alarmedQueues.has(dlq.path))
        .map((dlq) => `the dead-letter queue ${dlq.path} has no alarm: register Monitoring after its stack in sst.config.ts`),
  });

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
      left: perGroup((g) =>
        (groupFunctions[g] as NonNullable<(typeof groupFunctions)[string]>).metricInvocations({ period: PERIOD, label: g }),
      ),
      width: 12,
    }),
    new GraphWidget({
      title: '5xx answers per endpoint group',
      left: perGroup((g) => http5xxMetric(app.stage, g as never, PERIOD)),
      width: 12,
    }),
    new GraphWidget({
      title: 'Duration p99 per endpoint group (ms)',
      left: perGroup((g) =>
        (groupFunctions[g] as NonNullable<(typeof groupFunctions)[string]>).metricDuration({ period: PERIOD, statistic: 'p99', label: g }),
      ),
      width: 12,
    }),
    new GraphWidget({
      title: 'Errors and throttles per endpoint group',
      left: perGroup((g) =>
        (groupFunctions[g] as NonNullable<(typeof groupFunctions)[string]>).metricErrors({ period: PERIOD, label: `${g} errors` }),
      ),
      right: perGroup((g) =>
        (groupFunctions[g] as NonNullable<(typeof groupFunctions)[string]>).metricThrottles({ period: PERIOD, label: `${g} throttles` }),
      ),
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
  addBusinessMonitoring({ stage: app.stage, dashboard, alarm });

  stack.addOutputs({
    AlarmTopicArn: topic.topicArn,
    Dashboard: dashboard.dashboardName,
  });
  return { topic, alarms, dashboard };
}
