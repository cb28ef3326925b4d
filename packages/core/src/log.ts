/**
 * The service logger: Powertools Logger, one JSON object per line. Never pass a request body, header,
 * code, token or key to it (DESIGN §7).
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({
  serviceName: 'mathisland',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? (process.env.VITEST ? 'WARN' : 'INFO'),
});
