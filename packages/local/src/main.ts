/**
 * `npm start`: runs the whole service locally (see stack.ts) until Ctrl-C, then stops DynamoDB Local.
 * Reads `.env` when present. A bad setting stops startup with a message naming it. Builds the staff panel
 * first when its build is missing or older than its sources.
 */
import { existsSync } from 'node:fs';
import { SettingsError } from '@mathisland/core';
import { banner } from './banner';
import { adminBuildState, ensureAdminBuilt, startLocalStack } from './stack';

if (existsSync('.env')) process.loadEnvFile('.env');

try {
  const panel = adminBuildState();
  if (panel !== 'fresh') {
    console.log(panel === 'missing' ? 'building the staff panel (first start)...' : 'rebuilding the staff panel (its sources changed)...');
    await ensureAdminBuilt({ force: true });
  }
  const stack = await startLocalStack();
  for (const w of stack.warnings) console.warn(`warning: ${w}`);
  console.log(banner(stack));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping...');
    await stack.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  if (error instanceof SettingsError) {
    console.error(`startup failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
