/**
 * Secrets the local stack generates (DESIGN §1, §8): a secret unset in the environment is generated once (48
 * random bytes, base64url) into a file of DATA_DIR with mode 0600 and read back on later starts, so scripts
 * working on the same DATA_DIR (createsuperuser, marketplace:authorize, job:marketplace-renewal) use the same one.
 *
 * - `<DATA_DIR>/secret-key`: SECRET_KEY.
 * - `<DATA_DIR>/marketplace-secret`: the static secret of the fake marketplace (MARKETPLACE_API_SECRET locally).
 * - `<DATA_DIR>/marketplace-signing-key.pem`: the fake marketplace's RSA key pair (PKCS#8 PEM), with which it signs
 *   the purchase data it hands the app; its public half is MARKETPLACE_PUBLIC_KEY locally.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
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

/**
 * The fake marketplace's signing key pair (RSA 2048), generated once into `<dataDir>/marketplace-signing-key.pem`:
 * the private key, and the public key as the developer panel shows it (base64 X.509 SubjectPublicKeyInfo DER).
 */
export function ensureMarketplaceSigningKey(dataDir: string): { privateKey: KeyObject; publicKey: string } {
  const file = join(dataDir, 'marketplace-signing-key.pem');
  let privateKey: KeyObject;
  if (existsSync(file)) privateKey = createPrivateKey(readFileSync(file, 'utf8'));
  else {
    mkdirSync(dataDir, { recursive: true });
    privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  return { privateKey, publicKey };
}
