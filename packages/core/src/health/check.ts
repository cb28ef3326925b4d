/**
 * Health (spec Endpoints `GET /api/health`). Without a correct X-Internal-Key the edge answers `{ status }` from
 * {@link checkHealth}; with it, the details of {@link healthDetails}. Both are `error` (503 at the edge) only on
 * a real failure: the table cannot be read or migrations are missing. Never returns a secret: integrations are
 * booleans.
 */

import { pointInTimeRecovery } from '../db/backups';
import type { Deps } from '../deps';
import { marketplaceConnected } from '../marketplace';
import { unappliedMigrations } from '../migrations';

export interface HealthExtras {
  clientIp?: string;
  /** Tutor slots, when the caller's worker has a tutor (issue 5). */
  aiConcurrency?: { max: number; inUse: number };
  /** Warnings the caller adds (e.g. a generated SECRET_KEY). */
  warnings?: string[];
}

/** `ok` when the table answers and every migration of this code is applied (one Query). */
export async function checkHealth(deps: Deps): Promise<{ ok: boolean }> {
  try {
    const pending = await unappliedMigrations(deps.db);
    return { ok: pending.length === 0 };
  } catch {
    return { ok: false };
  }
}

/** Warnings about settings an operator should know of, then the failures found. */
function warningsOf(deps: Deps, pending: string[], pointInTime: boolean | null, extra: string[]): string[] {
  const { settings } = deps;
  const warnings = [...extra];
  if (settings.debug) warnings.push('DEBUG is on');
  if (settings.fixedOtpLogins.size > 0) warnings.push(`FIXED_OTP_LOGINS lists ${settings.fixedOtpLogins.size} demo phone(s)`);
  if (!settings.hearts.enforced) warnings.push('hearts are not enforced (HEARTS_ENFORCED=0)');
  if (!settings.internalServiceKey) warnings.push('INTERNAL_SERVICE_KEY is unset');
  if (pending.length) warnings.push(`unapplied migrations: ${pending.join(', ')}`);
  if (pointInTime === false) warnings.push('point-in-time recovery is off');
  return warnings;
}

/**
 * The details for operators: stage, database and migrations, content cache and counts, which integrations are
 * configured (booleans; `marketplace` only when a marketplace credential exists), warnings, the caller's IP, point-in-time recovery (null: unknown), the database pool
 * and the tutor's slots. `database.error` is the error's name only.
 */
export async function healthDetails(deps: Deps, extras: HealthExtras = {}) {
  const { settings } = deps;
  let database: { ok: boolean; error?: string } = { ok: true };
  let pending: string[] = [];
  let counts = { grades: 0, lessons: 0, questions: 0 };
  try {
    pending = await unappliedMigrations(deps.db);
    const c = (await deps.content.get()).counts;
    counts = { grades: c.grades, lessons: c.lessons, questions: c.questions };
  } catch (error) {
    database = { ok: false, error: error instanceof Error ? error.name : 'Error' };
  }
  // A database that did not answer is not asked again (it would only spend the request's time).
  const pointInTime = database.ok ? await pointInTimeRecovery(deps.db) : null;
  const marketplace = database.ok ? await marketplaceConnected(deps).catch(() => false) : false;
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
      // A credential exists: the static secret, or the refresh token of a completed authorization (DESIGN §8).
      marketplace,
      marketplaceDynamicPrice: Boolean(settings.marketplace.dynamicPriceKey),
      ai: Boolean(settings.ai.apiKey),
    },
    warnings: warningsOf(deps, pending, pointInTime, extras.warnings ?? []),
    clientIp: extras.clientIp ?? null,
    offsiteBackup: { pointInTimeRecovery: pointInTime },
    dbPool: deps.db.pool.stats(),
    aiConcurrency: extras.aiConcurrency ?? deps.tutorSlots.stats(),
  };
}
