/**
 * The table's point-in-time recovery status, for health's `offsiteBackup`.
 *
 * This is the one `@aws-sdk` import left in a domain: a control-plane call (DescribeContinuousBackups), not an
 * item read, which `db/` does not offer yet. It belongs in `db/backups.ts` (platform); then health imports
 * `pointInTimeRecovery` from there and this file goes.
 */
import { DescribeContinuousBackupsCommand } from '@aws-sdk/client-dynamodb';
import type { Db } from '../db/client';

/**
 * Whether point-in-time recovery is on for the table, or null when DynamoDB does not answer (DynamoDB Local, a
 * role without `dynamodb:DescribeContinuousBackups`). Never throws.
 */
export async function pointInTimeRecovery(db: Db): Promise<boolean | null> {
  try {
    const backups = await db.raw.send(new DescribeContinuousBackupsCommand({ TableName: db.tableName }));
    return backups.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus === 'ENABLED';
  } catch {
    return null;
  }
}
