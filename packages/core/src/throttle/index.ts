/**
 * Per-scope rate limits stored in DynamoDB (spec Limits: "every throttled route has its own scope"), so
 * every Lambda instance shares one count. A fixed window: one `UpdateItem ADD count 1` per request on the
 * item of (scope, subject, window start); the item expires through TTL after its window.
 *
 * Errors: `throttled` with `retryAfter` = seconds until the window ends.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ThrottleRule } from '../../../../infra/routes';
import { epochSeconds } from '../clock';
import { keys } from '../db/keys';
import type { Deps } from '../deps';
import { DomainError } from '../errors';

export async function hit(deps: Deps, scope: string, subject: string, rule: ThrottleRule): Promise<void> {
  const nowSeconds = epochSeconds(deps.clock.now());
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  const result = await deps.db.doc.send(
    new UpdateCommand({
      TableName: deps.db.tableName,
      Key: keys.throttle(scope, subject, windowStart),
      UpdateExpression: 'ADD #count :one SET expiresAt = :exp',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':exp': windowEnd + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (Number(result.Attributes?.count) > rule.limit) {
    throw new DomainError('throttled', `Too many requests (${scope}); try again later`, {
      retryAfter: Math.max(1, windowEnd - nowSeconds),
    });
  }
}
