/**
 * The table's point-in-time recovery status (a control-plane call, DescribeContinuousBackups), for health's
 * `offsiteBackup`.
 */
import { DescribeContinuousBackupsCommand } from '@aws-sdk/client-dynamodb';
import type { Db } from './client';

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
