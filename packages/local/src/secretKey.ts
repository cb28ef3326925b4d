/**
 * Secrets the local stack generates (DESIGN §1, §8): a secret unset in the environment is generated once (48
 * random bytes, base64url) into a file of DATA_DIR with mode 0600 and read back on later starts, so scripts
 * working on the same DATA_DIR (createsuperuser, marketplace:authorize, job:marketplace-renewal) use the same one.
 *
 * - `<DATA_DIR>/secret-key`: SECRET_KEY.
 * - `<DATA_DIR>/marketplace-secret`: the static secret of the fake marketplace (MARKETPLACE_API_SECRET locally).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The secret in `<dataDir>/<fileName>`, generated there when missing. */
export function ensureGeneratedSecret(dataDir: string, fileName: string): { key: string; generated: boolean } {
  const file = join(dataDir, fileName);
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, generated: true };
}

export const ensureSecretKey = (dataDir: string) => ensureGeneratedSecret(dataDir, 'secret-key');

/** The fake marketplace's static secret (the local stack's MARKETPLACE_API_SECRET when none is set). */
export const ensureMarketplaceSecret = (dataDir: string) => ensureGeneratedSecret(dataDir, 'marketplace-secret');
