/**
 * Health (spec Endpoints `GET /api/health`). Without a correct X-Internal-Key: `{ status }`. With it, the
 * details the spec lists. 503 (`status: 'error'`) only on a real failure: the table cannot be read or
 * migrations are missing. Never returns a secret: integrations are booleans.
 */
import { DescribeContinuousBackupsCommand } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../deps';
import { unappliedMigrations } from '../migrations';

export interface HealthExtras {
  clientIp?: string;
  /** Tutor slots, when the caller's worker has a tutor (issue 5). */
  aiConcurrency?: { max: number; inUse: number };
  /** Warnings the caller adds (e.g. a generated SECRET_KEY). */
  warnings?: string[];
}

export async function checkHealth(deps: Deps): Promise<{ ok: boolean }> {
  try {
    const pending = await unappliedMigrations(deps.db);
    return { ok: pending.length === 0 };
  } catch {
    return { ok: false };
  }
}

export async function healthDetails(deps: Deps, extras: HealthExtras = {}) {
  const { settings } = deps;
  const warnings = [...(extras.warnings ?? [])];
  let database: { ok: boolean; error?: string } = { ok: true };
  let pending: string[] = [];
  let counts = { grades: 0, lessons: 0, questions: 0 };
  try {
    pending = await unappliedMigrations(deps.db);
    const c = (await deps.content.get()).counts;
    counts = { grades: c.grades, lessons: c.lessons, questions: c.questions };
  } catch (error) {
    database = { ok: false, error: (error as Error).name };
  }
  let offsiteBackup: { pointInTimeRecovery: boolean | null } = { pointInTimeRecovery: null };
  try {
    const backups = await deps.db.raw.send(new DescribeContinuousBackupsCommand({ TableName: deps.db.tableName }));
    offsiteBackup = {
      pointInTimeRecovery: backups.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus === 'ENABLED',
    };
  } catch {
    // DynamoDB Local and restricted roles may not answer; null means unknown.
  }
  if (settings.debug) warnings.push('DEBUG is on');
  if (settings.fixedOtpLogins.size > 0) warnings.push(`FIXED_OTP_LOGINS lists ${settings.fixedOtpLogins.size} demo phone(s)`);
  if (!settings.hearts.enforced) warnings.push('hearts are not enforced (HEARTS_ENFORCED=0)');
  if (!settings.internalServiceKey) warnings.push('INTERNAL_SERVICE_KEY is unset');
  if (pending.length) warnings.push(`unapplied migrations: ${pending.join(', ')}`);
  if (offsiteBackup.pointInTimeRecovery === false) warnings.push('point-in-time recovery is off');
  const ok = database.ok && pending.length === 0;
  return {
    status: ok ? ('ok' as const) : ('error' as const),
    stage: settings.stage,
    database,
    unappliedMigrations: pending,
    cache: { content: deps.content.state() },
    counts,
    integrations: {
      sms: Boolean(settings.sms.apiKey),
      gateway: Boolean(settings.gateway.merchantId),
      marketplace: Boolean(settings.marketplace.apiSecret || (settings.marketplace.clientId && settings.marketplace.clientSecret)),
      marketplaceDynamicPrice: Boolean(settings.marketplace.dynamicPriceKey),
      ai: Boolean(settings.ai.apiKey),
    },
    warnings,
    clientIp: extras.clientIp ?? null,
    offsiteBackup,
    dbPool: deps.db.pool.stats(),
    aiConcurrency: extras.aiConcurrency ?? deps.tutorSlots.stats(),
  };
}
