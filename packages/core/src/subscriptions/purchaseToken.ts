/**
 * The marketplace purchase token at rest (DESIGN §8: "stored only as a SHA-256 digest and never logged"):
 *
 * - {@link purchaseTokenDigest}: SHA-256 hex of the token as the app sent it. It is the key of the token's binding
 *   to its order (marketplacePurchase.entity.ts, the unique constraint) and the only form on an order.
 * - {@link sealPurchaseToken} / {@link openPurchaseToken}: a marketplace subscription must be asked again for each
 *   renewal, which needs the token itself, so the renewal state keeps it sealed: AES-256-GCM under a key derived
 *   from SECRET_KEY with HKDF-SHA256 (info `mathisland marketplace purchase token`), a random 96-bit IV, the digest
 *   as associated data (a sealed token cannot be moved to another binding). A table dump reveals no usable token.
 *   Rotating SECRET_KEY makes sealed tokens unreadable: those subscriptions stop renewing (docs/decisions.md).
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'mathisland marketplace purchase token';
const VERSION = 'v1';

/** SHA-256 hex of `purchaseToken`. */
export const purchaseTokenDigest = (purchaseToken: string): string => createHash('sha256').update(purchaseToken, 'utf8').digest('hex');

const sealingKey = (secretKey: Uint8Array): Buffer => Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), INFO, 32));

/** `v1.<iv>.<ciphertext>.<tag>` (base64url parts) of `purchaseToken`, bound to its `digest`. */
export function sealPurchaseToken(secretKey: Uint8Array, purchaseToken: string, digest: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secretKey), iv);
  cipher.setAAD(Buffer.from(digest, 'utf8'));
  const body = Buffer.concat([cipher.update(purchaseToken, 'utf8'), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The token sealed in `sealed` for `digest`, or undefined when it cannot be opened (another key, tampered, malformed). */
export function openPurchaseToken(secretKey: Uint8Array, sealed: string, digest: string): string | undefined {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || body === undefined || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secretKey), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(digest, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const token = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return purchaseTokenDigest(token) === digest ? token : undefined;
  } catch {
    return undefined;
  }
}
