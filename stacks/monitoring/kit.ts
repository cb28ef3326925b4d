/**
 * What the parts of the Monitoring stack share (stacks/Monitoring.ts): the period every metric uses, the alarm maker
 * (named `mathisland-<stage>-<what>`, notifying the alarm topic when it fires and when it clears) and the endpoint
 * groups' functions.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { App, Stack } from 'sst/constructs';

/** What the parts read of an endpoint group's function: its metrics. */
export type GroupFunction = Pick<IFunction, 'metric' | 'metricErrors' | 'metricInvocations' | 'metricThrottles' | 'metricDuration'>;

/** The period of every alarm and dashboard metric. */
export const PERIOD = Duration.minutes(5);

export type AlarmProps = Omit<ConstructorParameters<typeof Alarm>[2], 'alarmName'>;

export interface MonitoringKit {
  stack: Stack;
  app: App;
  /** `mathisland-<stage>-<what>`. */
  name: (what: string) => string;
  /** A new alarm `id` named {@link name}(`what`), notifying the topic; kept in {@link alarms}. */
  alarm: (id: string, what: string, props: AlarmProps) => Alarm;
  /** Every alarm made so far (the dashboard's status widget shows them). */
  alarms: Alarm[];
  /** Each endpoint group's function, the streamed tutor's included. */
  groupFunctions: Record<string, GroupFunction>;
}

/** The kit of `stack`, whose alarms notify `topic`. */
export function monitoringKit(stack: Stack, app: App, topic: ITopic, groupFunctions: Record<string, GroupFunction>): MonitoringKit {
  const action = new SnsAction(topic);
  const alarms: Alarm[] = [];
  const name = (what: string) => `mathisland-${app.stage}-${what}`;
  const alarm = (id: string, what: string, props: AlarmProps) => {
    const created = new Alarm(stack, id, { alarmName: name(what), treatMissingData: TreatMissingData.NOT_BREACHING, ...props });
    created.addAlarmAction(action);
    created.addOkAction(action);
    alarms.push(created);
    return created;
  };
  return { stack, app, name, alarm, alarms, groupFunctions };
}
