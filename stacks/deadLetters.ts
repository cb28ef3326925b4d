/**
 * Dead-letter queues of the app, found by what points at them: a Lambda's async-invocation DLQ
 * (`DeadLetterConfig`), an on-failure destination (event invoke config, event source mapping), an EventBridge rule
 * target's or scheduler schedule's `DeadLetterConfig`, and another queue's `RedrivePolicy`. The Monitoring stack
 * alarms on each one's depth, so a stack that adds a scheduled job with a DLQ (the Jobs stack) gets its alarm
 * without touching Monitoring; Monitoring must then be registered after it (sst.config.ts), which its validation
 * checks at synthesis.
 */
import { CfnResource, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { App } from 'sst/constructs';

/** L1 properties that name a dead-letter or on-failure target, by resource type. */
const deadLetterProperties: Record<string, string[]> = {
  'AWS::Lambda::Function': ['deadLetterConfig'],
  'AWS::Lambda::EventInvokeConfig': ['destinationConfig'],
  'AWS::Lambda::EventSourceMapping': ['destinationConfig'],
  'AWS::Events::Rule': ['targets'],
  'AWS::Scheduler::Schedule': ['target'],
  'AWS::SQS::Queue': ['redrivePolicy'],
};

/** A queue that is some resource's dead-letter target: its L1 resource and the stack it is in. */
export interface DeadLetterQueue {
  queue: CfnResource;
  stack: Stack;
  /** The construct path of the queue, e.g. `test-mathisland-Jobs/RenewalDlq/Resource`. */
  path: string;
}

const isCfn = (c: IConstruct): c is CfnResource => CfnResource.isCfnResource(c);

/** Logical ids of the same-stack resources whose `Arn` a resolved value mentions (`Fn::GetAtt [id, Arn]`). */
function arnTargets(stack: Stack, value: unknown): string[] {
  const json = JSON.stringify(stack.resolve(value) ?? null);
  return [...json.matchAll(/\{"Fn::GetAtt":\["([^"]+)","Arn"\]\}/g)].map((m) => m[1] as string);
}

/** Every SQS queue of `app` that a resource of its own stack uses as a dead-letter or on-failure target. */
export function deadLetterQueuesOf(app: App): DeadLetterQueue[] {
  const resources = app.node.findAll().filter(isCfn);
  const targeted = new Set<string>();
  for (const resource of resources) {
    const properties = deadLetterProperties[resource.cfnResourceType];
    if (!properties) continue;
    const stack = Stack.of(resource);
    for (const property of properties) {
      const value = (resource as unknown as Record<string, unknown>)[property];
      if (value === undefined) continue;
      const narrowed = property === 'destinationConfig' ? (value as { onFailure?: unknown }).onFailure : value;
      for (const id of arnTargets(stack, narrowed)) targeted.add(`${stack.stackName}/${id}`);
    }
  }
  return resources
    .filter((r) => r.cfnResourceType === 'AWS::SQS::Queue')
    .filter((queue) => {
      const stack = Stack.of(queue);
      return targeted.has(`${stack.stackName}/${stack.resolve(queue.logicalId)}`);
    })
    .map((queue) => ({ queue, stack: Stack.of(queue), path: queue.node.path }));
}
