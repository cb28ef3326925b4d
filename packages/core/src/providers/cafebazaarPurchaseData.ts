/**
 * The marketplace's signed purchase data (DESIGN §8 "Binding a purchase to its order"; providers.md §2 Poolakey):
 * after a purchase, the app holds `originalJson` (here `purchaseData`), the JSON text the marketplace signed, and
 * `dataSignature`, base64 RSA-SHA1 (PKCS#1 v1.5) over exactly that text under the app's key pair, whose public half
 * the developer panel shows as base64 X.509 (SubjectPublicKeyInfo DER): MARKETPLACE_PUBLIC_KEY.
 *
 * `purchaseData` holds (Poolakey `RawDataToPurchaseInfo`): `orderId` (the marketplace's), `purchaseToken`,
 * `developerPayload`, `packageName`, `productId`, `purchaseState` (0 purchased, 1 refunded), `purchaseTime` (epoch
 * ms), and for a subscription `autoRenewing`. The signature proves the marketplace issued it; its fields prove
 * which order it was bought for (the subscription status API does not echo the developer payload).
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import * as z from 'zod';
import { lazySchema } from '../lazySchema';

const PurchaseData = lazySchema(() =>
  z.object({
    orderId: z.string().optional(),
    purchaseToken: z.string(),
    developerPayload: z.string().optional(),
    packageName: z.string(),
    productId: z.string(),
    purchaseState: z.number().int().optional(),
    purchaseTime: z.number().optional(),
    autoRenewing: z.boolean().optional(),
  }),
);
export type SignedPurchase = z.infer<typeof PurchaseData>;

const keys = new Map<string, KeyObject>();

/**
 * The RSA public key of `base64Der` (base64 X.509 SubjectPublicKeyInfo, as the developer panel shows it), parsed
 * once per process. Errors: `Error` with a message naming what is wrong (settings.ts refuses to start with it).
 */
export function marketplacePublicKey(base64Der: string): KeyObject {
  const known = keys.get(base64Der);
  if (known) return known;
  if (!/^[A-Za-z0-9+/=\s]+$/.test(base64Der)) throw new Error('is not base64');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(base64Der.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  } catch {
    throw new Error('is not a base64 X.509 (SubjectPublicKeyInfo) public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`is a ${key.asymmetricKeyType} key, not RSA`);
  keys.set(base64Der, key);
  return key;
}

/**
 * Checks `dataSignature` over `purchaseData` exactly as sent (UTF-8 bytes, no reformatting) with `publicKey`, then
 * reads its fields. Returns the purchase, or why it is no proof: `bad_signature` (not base64, or not the
 * marketplace's signature of these bytes), `malformed` (signed, but not a purchase's JSON).
 */
export function readSignedPurchase(
  publicKey: KeyObject,
  purchaseData: string,
  dataSignature: string,
): SignedPurchase | 'bad_signature' | 'malformed' {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(dataSignature)) return 'bad_signature';
  const signed = verify('RSA-SHA1', Buffer.from(purchaseData, 'utf8'), publicKey, Buffer.from(dataSignature, 'base64'));
  if (!signed) return 'bad_signature';
  let value: unknown;
  try {
    value = JSON.parse(purchaseData);
  } catch {
    return 'malformed';
  }
  const parsed = PurchaseData.safeParse(value);
  return parsed.success ? parsed.data : 'malformed';
}
