/** The marketplace's signed purchase data (cafebazaarPurchaseData.ts; DESIGN §8 "Binding a purchase to its order"). */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { marketplacePublicKey, readSignedPurchase } from './cafebazaarPurchaseData';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const panelKey = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const purchase = {
  orderId: 'BZR.1',
  packageName: 'ir.mathisland.app',
  productId: 'mathisland_sub_1m',
  purchaseTime: 1_763_625_600_000,
  purchaseState: 0,
  developerPayload: 'o42.abc',
  purchaseToken: 'tok-1',
  autoRenewing: true,
};
const data = JSON.stringify(purchase);
const signature = sign('RSA-SHA1', Buffer.from(data), privateKey).toString('base64');

describe('readSignedPurchase', () => {
  it('reads purchase data signed with RSA-SHA1 by the key of the developer panel (base64 X.509)', () => {
    expect(readSignedPurchase(marketplacePublicKey(panelKey), data, signature)).toEqual(purchase);
  });

  it('checks the bytes as sent: any change, another key or a broken signature is a bad signature', () => {
    const key = marketplacePublicKey(panelKey);
    expect(readSignedPurchase(key, data.replace('o42', 'o43'), signature)).toBe('bad_signature');
    expect(readSignedPurchase(key, JSON.stringify(purchase, null, 1), signature)).toBe('bad_signature');
    // Its first character changed (the key is new each run: a signature may begin with any character, `A` too).
    const broken = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(broken).not.toBe(signature);
    expect(readSignedPurchase(key, data, broken)).toBe('bad_signature');
    expect(readSignedPurchase(key, data, 'not base64!')).toBe('bad_signature');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(readSignedPurchase(key, data, sign('RSA-SHA1', Buffer.from(data), other).toString('base64'))).toBe('bad_signature');
    expect(readSignedPurchase(key, data, sign('RSA-SHA256', Buffer.from(data), privateKey).toString('base64'))).toBe('bad_signature');
  });

  it('answers malformed for signed text that is no purchase', () => {
    const text = '{"productId":"x"}';
    expect(
      readSignedPurchase(marketplacePublicKey(panelKey), text, sign('RSA-SHA1', Buffer.from(text), privateKey).toString('base64')),
    ).toBe('malformed');
  });
});

describe('marketplacePublicKey', () => {
  it('refuses what is no base64 RSA public key, saying why', () => {
    expect(() => marketplacePublicKey('not a key!')).toThrow('is not base64');
    expect(() => marketplacePublicKey(Buffer.from('hello').toString('base64'))).toThrow('X.509');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(() => marketplacePublicKey(ec)).toThrow('not RSA');
  });
});
