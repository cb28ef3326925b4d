/**
 * Alarms and the dashboard (issue 14 §4): every alarm notifies the stage's topic (created, with an optional e-mail
 * subscription, or an existing one given as ALARM_TOPIC_ARN); 5xx rate and throttles per endpoint group, the API's
 * 5xx rate, tutor errors, DynamoDB system errors, user-error spikes and throttles, and the depth of every dead-letter
 * queue in the app, including those of stacks this branch does not know (a scheduled job's).
 */
import type { Stack as CdkStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Function as CdkFunction, Code, Runtime } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Cron, type StackContext } from 'sst/constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpointGroups } from '../../infra/routes';
import { removedAfterAll } from '../../tests/support/tempDirs';
import { Api } from '../Api';
import { Monitoring, tableOperations } from '../Monitoring';
import { PAYMENT_RECHECK_SCHEDULE, paymentRecheckCron } from '../paymentRecheck';
import { Secrets } from '../Secrets';
import { Storage } from '../Storage';
import { http5xxLogPattern } from '../service';
import { synthesize } from '../synth';
import { Tutor } from '../Tutor';
import { Web } from '../Web';
import {
  appLambdas,
  baseStage,
  declaredGrants,
  grantedPairs,
  groupOf,
  type Resource,
  resourcesOf,
  setEnv,
  statementsOf,
  synthVariant,
  type Templates,
} from './support';

const TOPIC = 'arn:aws:sns:eu-central-1:123456789012:oncall';

let base: Templates;
let withTopic: Templates;
let withEmail: Templates;

beforeAll(async () => {
  ({ templates: base } = baseStage());
  withTopic = await synthVariant('oncall', { ALARM_TOPIC_ARN: TOPIC });
  withEmail = await synthVariant('mailed', { ALARM_EMAIL: 'ops@example.com' });
});

const alarms = (t: Template): Record<string, Resource> =>
  Object.fromEntries(Object.values(resourcesOf(t, 'AWS::CloudWatch::Alarm')).map((a) => [a.Properties.AlarmName as string, a]));
const alarm = (t: Template, name: string): Resource => {
  const found = alarms(t)[name];
  if (!found) throw new Error(`no alarm ${name}; alarms: ${Object.keys(alarms(t)).join(', ')}`);
  return found;
};
/** The metrics (namespace, name, dimensions) an alarm reads, plain or in its math expression. */
const metricsOf = (a: Resource) =>
  (a.Properties.Metrics ?? [{ MetricStat: { Metric: a.Properties } }])
    .filter((m: any) => m.MetricStat)
    .map((m: any) => ({
      namespace: m.MetricStat.Metric.Namespace,
      name: m.MetricStat.Metric.MetricName,
      dimensions: m.MetricStat.Metric.Dimensions ?? [],
    }));
const fnIdOf = (group: string): string => {
  const found = [base.Api, base.Tutor].flatMap((t) => Object.entries(appLambdas(t))).find(([, fn]) => groupOf(fn) === group);
  if (!found) throw new Error(`no function for ${group}`);
  return found[0];
};
const dimensionRefersTo = (m: { dimensions: Array<{ Value: unknown }> }, text: string) => JSON.stringify(m.dimensions).includes(text);

describe('the alarm topic', () => {
  it('is created for the stage when none is given, and every alarm notifies it (alarm and recovery)', () => {
    const [topicId] = Object.keys(resourcesOf(base.Monitoring, 'AWS::SNS::Topic'));
    expect(topicId).toBeDefined();
    expect(resourcesOf(base.Monitoring, 'AWS::SNS::Subscription')).toEqual({});
    for (const [name, a] of Object.entries(alarms(base.Monitoring))) {
      expect(a.Properties.AlarmActions, name).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions, name).toEqual([{ Ref: topicId }]);
    }
    expect(base.Monitoring.findOutputs('AlarmTopicArn').AlarmTopicArn!.Value).toEqual({ Ref: topicId });
  });

  it('subscribes ALARM_EMAIL to the created topic', () => {
    const subscriptions = Object.values(resourcesOf(withEmail.Monitoring, 'AWS::SNS::Subscription'));
    expect(subscriptions.map((s) => s.Properties)).toEqual([expect.objectContaining({ Protocol: 'email', Endpoint: 'ops@example.com' })]);
  });

  it('uses ALARM_TOPIC_ARN as it is, creating no topic', () => {
    expect(resourcesOf(withTopic.Monitoring, 'AWS::SNS::Topic')).toEqual({});
    for (const a of Object.values(alarms(withTopic.Monitoring))) expect(a.Properties.AlarmActions).toEqual([TOPIC]);
  });
});

describe('alarms', () => {
  it('alarms on each endpoint group’s 5xx rate: its 5xx log lines plus its Lambda errors over its invocations, above 5 %', () => {
    for (const group of endpointGroups) {
      const a = alarm(base.Monitoring, `mathisland-test-${group}-5xx`);
      expect(a.Properties).toMatchObject({
        Threshold: 5,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
      });
      const metrics = metricsOf(a);
      expect(metrics).toContainEqual({ namespace: 'mathisland/test', name: `Http5xx-${group}`, dimensions: [] });
      for (const name of ['Errors', 'Invocations']) {
        const m = metrics.find((x: { name: string }) => x.name === name);
        expect(m?.namespace).toBe('AWS/Lambda');
        expect(dimensionRefersTo(m, fnIdOf(group))).toBe(true);
      }
      expect(a.Properties.Metrics.find((m: any) => m.ReturnData !== false && m.Expression).Expression).toBe(
        'IF(inv >= 5, 100 * (http5xx + errors) / inv, 0)',
      );
    }
  });

  it('counts the 5xx request log lines of every service function with a metric filter on its own log group', () => {
    expect(JSON.stringify(http5xxLogPattern.logPatternString)).toContain('$.message = \\"request\\"');
    for (const t of [base.Api, base.Tutor]) {
      const filters = Object.values(resourcesOf(t, 'AWS::Logs::MetricFilter'));
      for (const [id, fn] of Object.entries(appLambdas(t))) {
        const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref;
        const filter = filters.find((f) => f.Properties.LogGroupName.Ref === logGroupId);
        expect(filter?.Properties, id).toMatchObject({
          FilterPattern: '{ ($.message = "request") && ($.status >= 500) }',
          MetricTransformations: [{ MetricNamespace: 'mathisland/test', MetricName: `Http5xx-${groupOf(fn)}`, MetricValue: '1' }],
        });
      }
    }
  });

  it('alarms on throttles of each endpoint group’s function', () => {
    for (const group of endpointGroups) {
      const a = alarm(base.Monitoring, `mathisland-test-${group}-throttles`);
      expect(a.Properties).toMatchObject({ MetricName: 'Throttles', Namespace: 'AWS/Lambda', Threshold: 1 });
      expect(JSON.stringify(a.Properties.Dimensions)).toContain(fnIdOf(group));
    }
  });

  it('alarms on the API stage’s 5xx rate (what never reached a function too)', () => {
    const metrics = metricsOf(alarm(base.Monitoring, 'mathisland-test-api-5xx'));
    expect(metrics.map((m: { name: string }) => m.name).sort()).toEqual(['5xx', 'Count']);
    for (const m of metrics) expect(m.namespace).toBe('AWS/ApiGateway');
  });

  it('alarms on tutor errors: failed invocations (a cut stream) and 5xx of its function URL', () => {
    const metrics = metricsOf(alarm(base.Monitoring, 'mathisland-test-tutor-errors'));
    expect(metrics.map((m: { name: string }) => m.name).sort()).toEqual(['Errors', 'Url5xxCount']);
    for (const m of metrics) expect(dimensionRefersTo(m, 'tutorGroup')).toBe(true);
  });

  it('alarms on DynamoDB system errors of every operation the service sends, user-error spikes and throttles', () => {
    const system = metricsOf(alarm(base.Monitoring, 'mathisland-test-table-system-errors'));
    expect(system.every((m: { name: string }) => m.name === 'SystemErrors')).toBe(true);
    expect(system.map((m: any) => m.dimensions.find((d: any) => d.Name === 'Operation').Value).sort()).toEqual([...tableOperations].sort());
    expect(system.length).toBeLessThanOrEqual(10); // CloudWatch: at most 10 metrics per alarm
    const user = alarm(base.Monitoring, 'mathisland-test-table-user-errors');
    expect(user.Properties).toMatchObject({ MetricName: 'UserErrors', Namespace: 'AWS/DynamoDB', Threshold: 10, EvaluationPeriods: 3 });
    const throttles = metricsOf(alarm(base.Monitoring, 'mathisland-test-table-throttles'));
    expect(throttles.map((m: { name: string }) => m.name).sort()).toEqual([
      'ReadThrottleEvents',
      'ReadThrottleEvents',
      'ReadThrottleEvents',
      'WriteThrottleEvents',
      'WriteThrottleEvents',
      'WriteThrottleEvents',
    ]);
  });

  it('has a dashboard of the stage with the alarms, the API, each group, the tutor and the table', () => {
    const [dashboard] = Object.values(resourcesOf(base.Monitoring, 'AWS::CloudWatch::Dashboard'));
    expect(dashboard!.Properties.DashboardName).toBe('mathisland-test-service');
    const body = JSON.stringify(dashboard!.Properties.DashboardBody);
    for (const title of [
      'Alarms',
      'API requests and errors',
      '5xx answers per endpoint group',
      'Tutor: answers, errors, URL 5xx',
      'DynamoDB errors and throttles',
    ]) {
      expect(body).toContain(title);
    }
  });
});

/**
 * A stack standing in for the Jobs stack another branch adds: the payment re-check job as Jobs will register it
 * (stacks/paymentRecheck.ts), a plain Cron with a DLQ, and the other kinds of dead-letter queue.
 */
function FakeJobs(context: StackContext) {
  const { stack } = context;
  paymentRecheckCron(context);
  const cronDlq = new Queue(stack, 'RenewalDeadLetters');
  new Cron(stack, 'Renewal', {
    schedule: 'rate(1 hour)',
    job: {
      function: { handler: 'packages/functions/src/jobs/migrate.handler' },
      cdk: { target: { deadLetterQueue: cronDlq, retryAttempts: 2 } },
    },
  });
  const asyncDlq = new Queue(stack, 'AsyncDeadLetters');
  new CdkFunction(stack, 'Worker', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => {}'),
    deadLetterQueue: asyncDlq,
    onFailure: new SqsDestination(new Queue(stack, 'FailureDestination')),
  });
  const redriveDlq = new Queue(stack, 'WorkDeadLetters');
  new Queue(stack, 'Work', { deadLetterQueue: { queue: redriveDlq, maxReceiveCount: 3 } });
}

describe('dead-letter queues', () => {
  const registerWith = (order: 'before' | 'after') => (app: Parameters<NonNullable<Parameters<typeof synthesize>[0]['register']>>[0]) => {
    app.stack(Storage).stack(Secrets).stack(Api).stack(Tutor);
    if (order === 'before') app.stack(FakeJobs).stack(Web).stack(Monitoring);
    else app.stack(Web).stack(Monitoring).stack(FakeJobs);
  };
  // The CDK's temporary assemblies these write (tens of MB each), removed when the tests are done.
  const removeLater = removedAfterAll();
  const synthesizeWith = async (order: 'before' | 'after') => {
    const restore = setEnv({});
    try {
      const synthesized = await synthesize({ stage: `dlq-${order}`, mode: 'deploy', activeStacks: [], register: registerWith(order) });
      removeLater(synthesized.app.outdir);
      return synthesized;
    } finally {
      restore();
    }
  };

  it('alarms on the depth of every dead-letter queue of a stack registered before Monitoring, and on nothing else', async () => {
    const { cdkStack } = await synthesizeWith('before');
    const monitoring = Template.fromStack(cdkStack('Monitoring'));
    const dlqAlarms = Object.entries(alarms(monitoring)).filter(([name]) => name.startsWith('mathisland-dlq-before-dlq-'));
    expect(dlqAlarms.map(([name]) => name).sort()).toEqual(
      ['AsyncDeadLetters', 'FailureDestination', 'PaymentRecheckDeadLetters', 'RenewalDeadLetters', 'WorkDeadLetters'].map(
        (q) => `mathisland-dlq-before-dlq-${q}`,
      ),
    );
    for (const [, a] of dlqAlarms) {
      expect(a.Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Statistic: 'Maximum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      expect(JSON.stringify(a.Properties.Dimensions)).toContain('dlq-before-mathisland-FakeJobs');
    }
    // The re-check job as Jobs registers it: every 15 minutes, retried twice, then its DLQ; exactly its declared access.
    const jobs = Template.fromStack(cdkStack('FakeJobs'));
    const [rule] = Object.values(resourcesOf(jobs, 'AWS::Events::Rule')).filter(
      (r) => r.Properties.ScheduleExpression === PAYMENT_RECHECK_SCHEDULE,
    );
    expect(rule!.Properties.Targets[0]).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 } });
    expect(JSON.stringify(rule!.Properties.Targets[0].DeadLetterConfig)).toContain('PaymentRecheckDeadLetters');
    const [job] = Object.values(resourcesOf(jobs, 'AWS::Lambda::Function')).filter((f) =>
      f.Properties.Description?.includes('payment-recheck'),
    );
    expect(job!.Properties.Environment.Variables).toMatchObject({ SECRETS_ID: expect.anything(), TABLE_NAME: expect.anything() });
    // Its declared access, and sending to its own dead-letter queue (a run that failed after Lambda's retries).
    const ownDeadLetters = job!.Properties.DeadLetterConfig?.TargetArn;
    expect(JSON.stringify(ownDeadLetters)).toContain('PaymentRecheckDeadLetters');
    expect(grantedPairs(statementsOf(jobs, job!))).toEqual(
      [
        ...declaredGrants('payment-recheck'),
        ...grantedPairs([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: ownDeadLetters }]),
      ].sort(),
    );
    // The work queue is not a dead-letter queue.
    expect(Object.keys(alarms(monitoring)).some((name) => name.endsWith('-Work'))).toBe(false);
    expect(JSON.stringify(monitoring.toJSON().Resources)).toContain('Dead-letter queues (messages)');
  });

  it('fails the synthesis when a stack with a dead-letter queue is registered after Monitoring', async () => {
    const { app } = await synthesizeWith('after');
    const monitoring = app.node.tryFindChild(app.logicalPrefixedName('Monitoring')) as unknown as CdkStack;
    const errors = monitoring.node.validate();
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'dlq-after-mathisland-FakeJobs/RenewalDeadLetters/Resource has no alarm: register Monitoring after its stack',
        ),
      ]),
    );
  });
});
