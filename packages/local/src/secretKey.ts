/**
 * The local SECRET_KEY (DESIGN §1): when the setting is unset, a strong key (48 random bytes, base64url)
 * is generated once into `<DATA_DIR>/secret-key` with mode 0600 and read back on later starts.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function ensureSecretKey(dataDir: string): { key: string; generated: boolean } {
  const file = join(dataDir, 'secret-key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, generated: true };
}
