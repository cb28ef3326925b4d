/**
 * Tutor: the streamed endpoint groups (`stream: true` in `infra/routes.ts`; today only `tutor`, serving
 * `POST /api/ai/ask`) as Lambda function URLs in invoke mode RESPONSE_STREAM (DESIGN §1). API Gateway HTTP APIs
 * buffer responses, so these groups are not behind the Api stack's HTTP API.
 *
 * Each function has the same environment and permissions as the Api stack's (`groupFunctionProps`), a 60 s
 * timeout (an answer holds a slot for at most about 40 s), and a public URL (auth type NONE: the handler checks
 * the learner's bearer token itself, as every group does) with CORS for browsers: POST from any origin (the API
 * uses bearer tokens, not cookies), `Authorization` and `Content-Type` allowed, and the tutor's response headers
 * exposed (`X-Message-Id`, `X-Tutor-Outcome`, `Retry-After`).
 *
 * Output `TutorUrl`: the app sends `POST {TutorUrl}/api/ai/ask` (its tutor base URL setting), or a CloudFront
 * distribution in front of the API routes `/api/ai/ask` to this origin so that one domain serves both (see
 * README, "How the app reaches the tutor").
 */
import { Function as LambdaFunction, type StackContext } from 'sst/constructs';
import { streamedGroups } from '../infra/routes';
import { groupFunctionId, groupFunctionProps } from './Api';

/** Output name of a streamed group's URL, e.g. `TutorUrl`. */
export const streamedUrlOutput = (group: string): string => `${group[0]?.toUpperCase()}${group.slice(1)}Url`;

/** Seconds a streamed function may run: the 40 s slot of an answer plus margin. */
export const STREAM_TIMEOUT_SECONDS = 60;

export function Tutor(context: StackContext) {
  const { stack } = context;
  const { environment, permissions } = groupFunctionProps(context);
  const functions = Object.fromEntries(
    streamedGroups.map((group) => {
      const fn = new LambdaFunction(stack, groupFunctionId(group), {
        handler: `packages/functions/src/groups/${group}.handler`,
        description: `mathisland endpoint group ${group} (streamed function URL)`,
        environment,
        permissions,
        timeout: STREAM_TIMEOUT_SECONDS,
        url: {
          authorizer: 'none',
          streaming: true,
          cors: {
            allowMethods: ['POST'],
            allowOrigins: ['*'],
            allowHeaders: ['authorization', 'content-type'],
            exposeHeaders: ['x-message-id', 'x-tutor-outcome', 'retry-after'],
            maxAge: '1 hour',
          },
        },
      });
      stack.addOutputs({ [streamedUrlOutput(group)]: fn.url ?? '' });
      return [group, fn];
    }),
  ) as Record<string, LambdaFunction>;
  return { functions };
}
