/**
 * The service logger: Powertools Logger, one JSON object per line. Never pass a request body, header,
 * code, token or key to it (DESIGN §7).
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({
  serviceName: 'mathisland',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'WARN' : 'INFO'),
});

/**
 * The audit line of one staff write (DESIGN §9: "every admin write is one JSON log line with the staff id"):
 * who (`staffId`, the username), what (`action`, e.g. `refund`), on which record (`target` model and
 * `targetId`). Never a body, password or token.
 */
export function auditStaffAction(staffId: string, action: string, target: string, targetId: string | number): void {
  logger.info('staff action', { staffId, action, target, targetId: String(targetId) });
}
