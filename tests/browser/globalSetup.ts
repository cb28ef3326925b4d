/**
 * The browser project's setup: the staff panel's build (made here when missing or older than its sources, as
 * `npm start` does) and Debian's Chromium (CI installs it with apt; no browser is ever downloaded).
 */
import { existsSync } from 'node:fs';
import { ensureAdminBuilt } from '../../packages/local/src/stack';
import { CHROMIUM } from './support';

export default async function setup() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  await ensureAdminBuilt({ quiet: true });
}
