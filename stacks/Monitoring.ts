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
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { type StackContext, use } from 'sst/constructs';
import { Api } from './Api';
import { deployConfig } from './config';
import { addBusinessMonitoring } from './monitoring/dashboard';
import { deadLetterAlarms } from './monitoring/deadLetterAlarms';
import { type GroupFunction, monitoringKit } from './monitoring/kit';
import { apiAlarm, apiMetricOf, endpointGroupAlarms, tutorAlarm } from './monitoring/serviceAlarms';
import { serviceDashboard } from './monitoring/serviceDashboard';
import { tableAlarms } from './monitoring/tableAlarms';
import { Storage } from './Storage';
import { Tutor } from './Tutor';

export { watchDeadLetterQueue } from './monitoring/deadLetterAlarms';
export { tableOperations } from './monitoring/tableAlarms';

function alarmTopic(context: StackContext): ITopic {
  const { stack, app } = context;
  const { alarms } = deployConfig(app.stage);
  if (alarms.topicArn) return Topic.fromTopicArn(stack, 'AlarmTopic', alarms.topicArn);
  const topic = new Topic(stack, 'AlarmTopic', { displayName: `mathisland ${app.stage} alarms` });
  if (alarms.email) topic.addSubscription(new EmailSubscription(alarms.email));
  return topic;
}

/**
 * The stack (see the module doc); its parts are in `stacks/monitoring/`: the alarm kit, the service's, the table's and
 * the dead-letter queues' alarms, the service dashboard, and the business metrics' widgets and alarms (dashboard.ts).
 */
export function Monitoring(context: StackContext) {
  const { stack, app } = context;
  const { api, functions } = use(Api);
  const { functions: streamed } = use(Tutor);
  const { table } = use(Storage);
  const topic = alarmTopic(context);
  const groupFunctions = { ...functions, ...streamed } as Record<string, GroupFunction>;
  const kit = monitoringKit(stack, app, topic, groupFunctions);

  endpointGroupAlarms(kit);
  const apiMetric = apiMetricOf(api.httpApiId);
  apiAlarm(kit, apiMetric);
  const tutor = streamed.tutor;
  if (!tutor) throw new Error('Monitoring: the Tutor stack deploys no tutor function');
  tutorAlarm(kit, tutor);
  const throttleMetrics = tableAlarms(kit, table.cdk.table);
  const dlqMetrics = deadLetterAlarms(kit);
  const dashboard = serviceDashboard(kit, { apiMetric, tutor, table: table.cdk.table, throttleMetrics, dlqMetrics });
  // The service's own metrics (issue 30): their widgets below the service's, their alarms in the status widget too.
  addBusinessMonitoring(kit, dashboard);

  stack.addOutputs({
    AlarmTopicArn: topic.topicArn,
    Dashboard: dashboard.dashboardName,
  });
  return { topic, alarms: kit.alarms, dashboard };
}
