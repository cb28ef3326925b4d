/**
 * `npm start`: runs the whole service locally (see stack.ts) until Ctrl-C, then stops DynamoDB Local.
 * Reads `.env` when present. A bad setting stops startup with a message naming it. Builds the staff panel
 * first when its build is missing or older than its sources.
 */
import { existsSync } from 'node:fs';
import { SettingsError } from '@mathisland/core';
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
  console.log(`
  mathisland is running
    API         ${stack.baseUrl}/api/
    health      ${stack.baseUrl}/api/health
    SMS outbox  ${stack.baseUrl}/_local/sms/outbox
    staff panel ${stack.baseUrl}/admin/ (sign in as a staff member: npm run createsuperuser)
    gateway     ${stack.baseUrl}/_local/gateway/ (fake; pay links lead to its StartPay page)${
      stack.deps.settings.marketplace.baseUrl.startsWith(stack.baseUrl)
        ? `\n    marketplace ${stack.baseUrl}/_local/marketplace/ (fake; mint purchase tokens with POST /_local/marketplace/purchases)`
        : ''
    }
    frontend    ${stack.baseUrl}/ (stand-in page where payment results land)${
      stack.deps.settings.ai.apiKey && stack.deps.settings.ai.baseUrl.startsWith(stack.baseUrl)
        ? `\n    tutor model ${stack.baseUrl}/_local/llm/requests (fake; what the model was sent)`
        : ''
    }
  Ctrl-C stops it (and DynamoDB Local).
`);
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
