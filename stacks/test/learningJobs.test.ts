/**
 * The scheduled jobs of DESIGN §13 in the synthesized stage `test` (stacks/learningJobs.ts, registered by the Jobs
 * stack): the nightly streak freeze job and the Friday parent reports, each an EventBridge rule on its schedule running
 * its handler (Node 22 on arm64, JSON logs, Lambda's longest timeout), retried twice, then its own dead-letter queue
 * (14 days), which the Monitoring stack alarms on; each with exactly the table access infra/permissions.ts declares
 * (the due indexes, never a Scan); and the parent schedule's runs cover the sending window of the code.
 */
import { reportWeekAt } from '@mathisland/core/parents';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEARNING_JOB_RETRIES, LEARNING_JOB_TIMEOUT_SECONDS, PARENT_REPORTS_SCHEDULE, STREAK_FREEZES_SCHEDULE } from '../learningJobs';
import {
  baseStage,
  declaredGrants,
  grantedPairs,
  type Resource,
  type Resources,
  resourcesOf,
  statementsOf,
  type Templates,
} from './support';

let templates: Templates;
beforeAll(() => {
  ({ templates } = baseStage());
});

const jobs = [
  {
    name: 'streak-freezes',
    handler: 'packages/functions/src/jobs/streakFreezes.handler',
    schedule: STREAK_FREEZES_SCHEDULE,
    queue: 'StreakFreezesDeadLetters',
  },
  {
    name: 'parent-reports',
    handler: 'packages/functions/src/jobs/parentReports.handler',
    schedule: PARENT_REPORTS_SCHEDULE,
    queue: 'ParentReportsDeadLetters',
  },
] as const;

function jobFunction(handler: string): [string, Resource] {
  const found = Object.entries(resourcesOf(templates.Jobs, 'AWS::Lambda::Function')).filter(([, fn]) => fn.Properties.Handler === handler);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe.each(jobs)('the $name job', ({ name, handler, schedule, queue }) => {
  it('runs its handler on its schedule, Node 22 on arm64 with JSON logs, for up to 15 minutes', () => {
    const [fnId, fn] = jobFunction(handler);
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      LoggingConfig: { LogFormat: 'JSON' },
      Timeout: LEARNING_JOB_TIMEOUT_SECONDS,
    });
    const rules = Object.values(resourcesOf(templates.Jobs, 'AWS::Events::Rule')).filter((r) =>
      r.Properties.Targets.some((t: { Arn: unknown }) => JSON.stringify(t.Arn) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] })),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties).toMatchObject({ ScheduleExpression: schedule, State: 'ENABLED' });
  });

  it('sends a failed run, after two retries, and an undeliverable event to its dead-letter queue, which is alarmed', () => {
    const [fnId, fn] = jobFunction(handler);
    const queueId = fn.Properties.DeadLetterConfig.TargetArn['Fn::GetAtt'][0] as string;
    expect(queueId).toContain(queue);
    const queues = resourcesOf(templates.Jobs, 'AWS::SQS::Queue') as Resources;
    expect(queues[queueId]!.Properties.MessageRetentionPeriod).toBe(14 * 86_400);
    const invokeConfigs = Object.values(resourcesOf(templates.Jobs, 'AWS::Lambda::EventInvokeConfig'));
    expect(invokeConfigs).toContainEqual(
      expect.objectContaining({
        Properties: expect.objectContaining({ FunctionName: { Ref: fnId }, MaximumRetryAttempts: LEARNING_JOB_RETRIES }),
      }),
    );
    const rule = Object.values(resourcesOf(templates.Jobs, 'AWS::Events::Rule')).find((r) => r.Properties.ScheduleExpression === schedule)!;
    expect(rule.Properties.Targets[0]).toMatchObject({
      DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
      RetryPolicy: { MaximumRetryAttempts: LEARNING_JOB_RETRIES, MaximumEventAgeInSeconds: 3600 },
    });
    const alarms = Object.values(resourcesOf(templates.Monitoring, 'AWS::CloudWatch::Alarm')).filter((a) =>
      String(a.Properties.AlarmName).endsWith(`-dlq-${queue}`),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('may do exactly what infra/permissions.ts declares for it (its index, no Scan), and send to its own queue', () => {
    const [, fn] = jobFunction(handler);
    const granted = grantedPairs(statementsOf(templates.Jobs, fn));
    const own = grantedPairs([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: fn.Properties.DeadLetterConfig.TargetArn }]);
    expect(granted).toEqual([...declaredGrants(name), ...own].sort());
    expect(granted.join('\n')).not.toMatch(/Scan|dynamodb:\*/);
    expect(granted).toContain('dynamodb:Query on index/gsi1');
  });
});

describe('the parent reports’ schedule', () => {
  it('fires every 15 minutes through the whole sending window of Friday 18:00-22:00 Tehran, and only then sends', () => {
    // cron(0/15 14-18 ? * FRI *): Friday 14:00-18:45 UTC, every 15 minutes (Tehran is UTC+03:30 all year).
    expect(PARENT_REPORTS_SCHEDULE).toBe('cron(0/15 14-18 ? * FRI *)');
    const fires = [14, 15, 16, 17, 18].flatMap((h) => [0, 15, 30, 45].map((m) => Date.UTC(2026, 10, 27, h, m)));
    const sending = fires.filter((t) => reportWeekAt(t) !== undefined);
    expect(sending).toHaveLength(16);
    expect(new Date(sending[0]!).toISOString()).toBe('2026-11-27T14:30:00.000Z'); // 18:00 Tehran
    expect(new Date(sending.at(-1)!).toISOString()).toBe('2026-11-27T18:15:00.000Z'); // 21:45 Tehran
    expect(reportWeekAt(Date.UTC(2026, 10, 27, 18, 30))).toBeUndefined(); // 22:00 Tehran: the window is over
  });

  it('runs the freeze job after every Tehran midnight, 00:05 to 05:05', () => {
    expect(STREAK_FREEZES_SCHEDULE).toBe('cron(35 0-1,20-23 * * ? *)');
  });
});
