/**
 * Tutor: the streamed endpoint groups (`stream: true` in `infra/routes.ts`: `tutor`, serving `POST /api/ai/ask`, and
 * `adminexport`, the staff's CSV exports `GET /api/admin/<resource>/export.csv`) as Lambda function URLs in invoke mode RESPONSE_STREAM (DESIGN §1). API Gateway HTTP APIs
 * buffer responses, so these groups are not behind the Api stack's HTTP API; the Web stack's CloudFront routes
 * `/api/ai/ask` on the stage's one domain to this URL, streaming passing through.
 *
 * Each function has the environment of every service function and its own least-privilege policy
 * (stacks/service.ts), a 60 s timeout (an answer holds a slot for at most about 40 s), and a public URL (auth
 * type NONE: the handler checks the learner's bearer token itself, as every group does, and refuses any request
 * without CloudFront's secret origin header, 403 `forbidden_origin`, DESIGN §12; an IAM-authorized URL behind
 * CloudFront's origin access control would make every client sign the POST body's SHA-256). CORS for
 * browsers on another origin: POST from the stage's public origin only (none while it is unknown),
 * `Authorization` and `Content-Type` allowed, and the tutor's response headers exposed (`X-Message-Id`,
 * `X-Tutor-Outcome`, `Retry-After`).
 *
 * Under `sst dev` (SST's dev mode) each function's deployed code is SST's live-lambda bridge, an ordinary handler that
 * returns the whole response the handler on the developer's machine produced (there the group's streaming handler is
 * wrapped by the buffering stand-in of packages/functions/src/lib/responseStream.ts). A RESPONSE_STREAM URL would hand
 * that response object to the client as its body, so in dev mode the URLs are BUFFERED: answers arrive whole, not
 * streamed, and a response is limited to Lambda's 6 MB.
 *
 * Outputs `TutorUrl` and `AdminexportUrl`: the function URLs themselves (diagnostics; clients use
 * `{PUBLIC_BASE_URL}/api/...`).
 */
import type { Function as LambdaFunction, StackContext } from 'sst/constructs';
import { functionMemoryMb, nodejsProps } from '../infra/functions';
import { streamedGroups } from '../infra/routes';
import { deployConfig } from './config';
import { groupFunctionId, serviceFunction } from './service';

/** Output name of a streamed group's URL, e.g. `TutorUrl`. */
export const streamedUrlOutput = (group: string): string => `${group[0]?.toUpperCase()}${group.slice(1)}Url`;

/** Seconds a streamed function may run: the 40 s slot of an answer plus margin. */
export const STREAM_TIMEOUT_SECONDS = 60;
/**
 * Seconds the CSV exports (`adminexport`) may run: Lambda's most, 15 minutes, so an export of a whole list is written
 * to its end (docs/decisions.md "CSV export"; CloudFront waits at most {@link STREAM_TIMEOUT_SECONDS} between chunks,
 * and an export writes one per page).
 */
export const EXPORT_TIMEOUT_SECONDS = 900;

/** How long the streamed group `group` may run, seconds. */
export const streamTimeoutSeconds = (group: string): number => (group === 'adminexport' ? EXPORT_TIMEOUT_SECONDS : STREAM_TIMEOUT_SECONDS);

export function Tutor(context: StackContext) {
  const { stack, app } = context;
  const { publicBaseUrl } = deployConfig(app.stage);
  const functions = Object.fromEntries(
    streamedGroups.map((group) => {
      const fn = serviceFunction(context, groupFunctionId(group), group, {
        handler: `packages/functions/src/groups/${group}.handler`,
        description: `mathisland endpoint group ${group} (streamed function URL)`,
        timeout: streamTimeoutSeconds(group),
        memorySize: functionMemoryMb[group],
        // The model groups' openai SDK in a file of its own, loaded at the first model call (infra/functions.ts).
        nodejs: nodejsProps(group),
        url: {
          authorizer: 'none',
          // Not in dev mode: the live-lambda bridge returns a whole response (see the module doc).
          streaming: app.mode !== 'dev',
          cors: publicBaseUrl
            ? {
                allowMethods: ['POST'],
                allowOrigins: [publicBaseUrl],
                allowHeaders: ['authorization', 'content-type'],
                exposeHeaders: ['x-message-id', 'x-tutor-outcome', 'retry-after'],
                maxAge: '1 hour',
              }
            : false,
        },
      });
      stack.addOutputs({ [streamedUrlOutput(group)]: fn.url ?? '' });
      return [group, fn];
    }),
  ) as Record<string, LambdaFunction>;
  return { functions };
}
