/**
 * The purchase token at rest (DESIGN §8): its SHA-256 digest, and the sealed copy a renewal needs, which opens only
 * with the same SECRET_KEY and for the same digest.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPurchaseToken, purchaseTokenDigest, sealPurchaseToken } from './purchaseToken';

const key = new TextEncoder().encode('k'.repeat(48));
const otherKey = new TextEncoder().encode('o'.repeat(48));
const token = 'S5xZ0_token-of-a-purchase';
const digest = purchaseTokenDigest(token);

describe('purchase token at rest', () => {
  it('digests with SHA-256 hex', () => {
    expect(digest).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('seals without the token in clear, with a fresh IV each time, and opens with the same key and digest only', () => {
    const sealed = sealPurchaseToken(key, token, digest);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain(token);
    expect(sealPurchaseToken(key, token, digest)).not.toBe(sealed);
    expect(openPurchaseToken(key, sealed, digest)).toBe(token);
    expect(openPurchaseToken(otherKey, sealed, digest)).toBeUndefined();
    expect(openPurchaseToken(key, sealed, purchaseTokenDigest('another'))).toBeUndefined();
  });

  it('refuses a tampered or malformed seal', () => {
    const sealed = sealPurchaseToken(key, token, digest);
    const [v, iv, body, tag] = sealed.split('.');
    // Flip the first character: every bit of it is ciphertext (the last one may carry only padding bits).
    const flipped = `${body!.startsWith('A') ? 'B' : 'A'}${body!.slice(1)}`;
    expect(openPurchaseToken(key, [v, iv, flipped, tag].join('.'), digest)).toBeUndefined();
    for (const bad of ['', 'v1', 'v2.a.b.c', 'v1..x.y', 'not a seal']) expect(openPurchaseToken(key, bad, digest)).toBeUndefined();
  });
});
