/**
 * The Lambda handler of a scheduled job or of the migration script (packages/functions/src/jobs/): `run` under the
 * same log context as the endpoint groups (middlewares/logContext.ts: the Lambda context and a correlation id, the
 * EventBridge event's id, on every line). `run` gets the Lambda context (its remaining time), when there is one; no
 * job reads its event.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logContext } from './middlewares/logContext';

export const jobHandler = <R>(run: (context: Partial<Context> | undefined) => Promise<R>): middy.MiddyfiedHandler<unknown, R> =>
  middy<unknown, R>()
    .use(logContext<unknown, R>())
    .handler((_event, context) => run(context));
