/**
 * The board-snapshot job in the synthesized stage `test` (stacks/boardSnapshots.ts, registered by the Jobs stack): an
 * EventBridge rule every minute running its handler with the timeout and memory the capacity model holds its longest
 * run at 3,000,000 learners against (infra/functions.ts BOARD_SNAPSHOT_JOB, docs/capacity.md), never retried (the next
 * minute's run supersedes a failed one), a failed run in its own dead-letter queue.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BOARD_SNAPSHOT_JOB } from '../../infra/functions';
import { BOARD_SNAPSHOT_SCHEDULE } from '../boardSnapshots';
import { baseStage, resourcesOf, type Templates } from './support';

let templates: Templates;
beforeAll(() => {
  ({ templates } = baseStage());
});

describe('the board-snapshot job', () => {
  it('runs every minute with the timeout and memory the capacity model checks, not retried, failures to its queue', () => {
    const found = Object.entries(resourcesOf(templates.Jobs, 'AWS::Lambda::Function')).filter(
      ([, fn]) => fn.Properties.Handler === 'packages/functions/src/jobs/boardSnapshots.handler',
    );
    expect(found).toHaveLength(1);
    const [fnId, fn] = found[0]!;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Timeout: BOARD_SNAPSHOT_JOB.timeoutSeconds,
      MemorySize: BOARD_SNAPSHOT_JOB.memoryMb,
    });
    expect(String(fn.Properties.DeadLetterConfig.TargetArn['Fn::GetAtt'][0])).toContain('BoardSnapshotsDeadLetters');
    const rules = Object.values(resourcesOf(templates.Jobs, 'AWS::Events::Rule')).filter((r) =>
      r.Properties.Targets.some((t: { Arn: unknown }) => JSON.stringify(t.Arn) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] })),
    );
    expect(rules).toHaveLength(1);
    expect(BOARD_SNAPSHOT_SCHEDULE).toBe('rate(1 minute)');
    expect(rules[0]!.Properties).toMatchObject({ ScheduleExpression: BOARD_SNAPSHOT_SCHEDULE, State: 'ENABLED' });
    expect(rules[0]!.Properties.Targets[0]).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 } });
    const invokeConfigs = Object.values(resourcesOf(templates.Jobs, 'AWS::Lambda::EventInvokeConfig'));
    expect(invokeConfigs).toContainEqual(
      expect.objectContaining({ Properties: expect.objectContaining({ FunctionName: { Ref: fnId }, MaximumRetryAttempts: 0 }) }),
    );
  });
});
