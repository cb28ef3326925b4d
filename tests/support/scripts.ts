/**
 * Runs a management script (`scripts/<file>`, with tsx) against a test stack's table, as an operator would run it
 * against a running `npm start`: DYNAMODB_ENDPOINT, TABLE_NAME, SECRET_KEY and PUBLIC_BASE_URL of the stack, and
 * `env` for the provider settings the script needs (the stack's fakes). Resolves with stdout and stderr; rejects
 * when the script exits non-zero.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestStack } from './stack';

export function runScriptOnStack(
  stack: TestStack,
  file: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<{ stdout: string; stderr: string }> {
  const settings = stack.deps.settings;
  return promisify(execFile)('node_modules/.bin/tsx', [`scripts/${file}`, ...args], {
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: settings.dynamodbEndpoint,
      TABLE_NAME: stack.deps.db.tableName,
      SECRET_KEY: settings.secretKey,
      PUBLIC_BASE_URL: stack.baseUrl,
      ...env,
    },
  });
}
