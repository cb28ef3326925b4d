/**
 * `npm run marketplace:authorize [-- --hours <1-720>] [-- --aws]`: opens a marketplace authorization window (spec
 * Authentication 9: "Staff open an authorization window from admin (or a management command)"; DESIGN §8) and
 * prints the consent link to send to the owner of the marketplace account. When the owner approves, the
 * marketplace redirects to `{PUBLIC_BASE_URL}/api/payment/marketplace/verify?code=…&state=…`, which stores the
 * refresh token and closes the window. Default length MARKETPLACE_AUTHORIZE_WINDOW_HOURS (72).
 *
 * Table: scripts/lib/localTable.ts. Settings: the environment (and `.env`), over those the running `npm start` filled
 * in (PUBLIC_BASE_URL and, with nothing configured, the fake marketplace's OAuth client). Opening a window needs
 * MARKETPLACE_CLIENT_ID and PUBLIC_BASE_URL (the redirect URI); for a deployed stage (`--aws` with TABLE_NAME) pass
 * those of the stage, e.g. from `.env.<stage>`. Exits 1 with a message when OAuth is not configured.
 */
import { existsSync } from 'node:fs';
import { buildDeps, DomainError, loadSettings, SettingsError } from '@mathisland/core';
import { openAuthorizeWindow } from '@mathisland/core/marketplace';
import { closeTable, type OpenedTable, openTable, TableRefusal } from './lib/localTable';

if (existsSync('.env')) process.loadEnvFile('.env');

const args = process.argv.slice(2);
const hoursFlag = args.indexOf('--hours') >= 0 ? args[args.indexOf('--hours') + 1] : undefined;

let opened: OpenedTable | undefined;
try {
  const hours = hoursFlag === undefined ? undefined : Number(hoursFlag);
  if (hours !== undefined && (!Number.isInteger(hours) || hours < 1 || hours > 720)) {
    throw new DomainError('validation_error', '--hours must be a whole number from 1 to 720');
  }
  opened = await openTable(loadSettings(), { script: 'marketplace:authorize', aws: args.includes('--aws') });
  const env = { ...opened.published, ...process.env };
  // The window needs only the client id and the redirect URI; the client secret is used by the service's exchange.
  env.MARKETPLACE_CLIENT_SECRET ||= env.MARKETPLACE_CLIENT_ID ? 'not-needed-to-open-a-window' : '';
  env.SECRET_KEY ||= 'marketplace-authorize-script-does-not-sign-anything';
  const deps = buildDeps(loadSettings(env), { db: opened.db });
  const window = await openAuthorizeWindow(deps, { hours, actor: 'script' });
  console.log(`Authorization window open in ${opened.where} until ${new Date(window.expiresAt).toISOString()}.
Send this link to the owner of the marketplace account; it works until then:

${window.authorizeUrl}
`);
} catch (error) {
  if (error instanceof DomainError || error instanceof SettingsError || error instanceof TableRefusal) {
    console.error(`marketplace:authorize: ${error instanceof DomainError ? error.detail : error.message}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await closeTable(opened);
}
