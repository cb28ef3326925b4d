/**
 * An alarm per dead-letter queue (stacks/Monitoring.ts): those handed over with {@link watchDeadLetterQueue} by a stack
 * registered before Monitoring, and every queue the app uses as a dead-letter target (stacks/deadLetters.ts). A DLQ in
 * a stack registered after Monitoring would have no alarm: the synthesis fails then.
 */
import { ComparisonOperator, type IMetric, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { App } from 'sst/constructs';
import { type DeadLetterQueue, deadLetterQueuesOf } from '../deadLetters';
import { type MonitoringKit, PERIOD } from './kit';

/** Dead-letter queues handed over by stacks registered before Monitoring (in addition to those discovered). */
const givenQueues: DeadLetterQueue[] = [];

/** Registers a dead-letter queue for an alarm (for a queue nothing points at yet, e.g. one a Lambda destination will use). */
export function watchDeadLetterQueue(queue: DeadLetterQueue): void {
  givenQueues.push(queue);
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

/** `dlq-<queue>` for every dead-letter queue; returns their depth metrics (for the dashboard). */
export function deadLetterAlarms(kit: MonitoringKit): IMetric[] {
  const { alarm, app, stack } = kit;
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
  return dlqMetrics;
}
