/**
 * `npm start`: runs the whole service locally (see stack.ts) until Ctrl-C, then stops DynamoDB Local.
 * Reads `.env` when present. Before anything slow it checks the settings, the port (PORT, default 3000) and Java
 * (preflight.ts), so a bad setting, a busy port or a missing Java stops startup at once with one sentence
 * (`startup failed: ...`, exit 1), never a stack trace. Then it says each step as it begins: building the staff
 * panel (when its build is missing, older than its sources or a development build), starting DynamoDB Local,
 * creating the table and migrating (the curriculum seed), ingesting the tutor's textbook; then the banner.
 */
import { existsSync } from 'node:fs';
import { loadSettings, SettingsError } from '@mathisland/core';
import { banner } from './banner';
import { assertPortFree, checkJava, StartupError } from './preflight';
import { adminBuildState, ensureAdminBuilt, startLocalStack } from './stack';

if (existsSync('.env')) process.loadEnvFile('.env');

const PANEL_STEP = {
  missing: 'building the staff panel (first start, Vite: about half a minute)...',
  stale: 'rebuilding the staff panel (its sources changed)...',
  development: 'rebuilding the staff panel (the build found is a development build)...',
} as const;

try {
  loadSettings(process.env);
  await assertPortFree(Number(process.env.PORT ?? 3000));
  if (!process.env.DYNAMODB_ENDPOINT) checkJava();
  const panel = adminBuildState();
  if (panel !== 'fresh') {
    console.log(PANEL_STEP[panel]);
    await ensureAdminBuilt({ force: true });
  }
  const stack = await startLocalStack({ onProgress: (step) => console.log(step) });
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
  if (error instanceof SettingsError || error instanceof StartupError) {
    console.error(`startup failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
