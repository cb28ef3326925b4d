/** What the fake marketplace's modules share (marketplace.ts, marketplaceControl.ts): its state types and JSON helpers. */
import { type KeyObject, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export interface MarketplaceFakeOptions {
  packageName: string;
  /** The app's static secret (Pishkhan API); undefined accepts none. */
  apiSecret?: string;
  clientId?: string;
  clientSecret?: string;
  /** The OAuth client's registered redirect URI (set once the local server knows its address). */
  redirectUri?: string;
  /** Epoch ms now (the stack's clock, so tests that move time expire access tokens too). */
  now: () => number;
  /**
   * The app's signing key pair: every minted purchase's data is signed with `privateKey` (RSA-SHA1, as the real one);
   * `publicKey` is its public half, base64 X.509, as the developer panel shows it (MARKETPLACE_PUBLIC_KEY).
   */
  signing?: { privateKey: KeyObject; publicKey: string };
}

export interface FakePurchase {
  token: string;
  /** The marketplace's own order id of the purchase. */
  orderId: string;
  packageName: string;
  productId: string;
  kind: 'inapp' | 'subscription';
  developerPayload: string;
  purchaseTime: number;
  validUntil: number;
  autoRenewing: boolean;
  /** Refunded: an in-app purchase then validates with `purchaseState: 1`, a subscription answers 404. */
  refunded: boolean;
  /** In-app: the app consumed it (Poolakey `consumePurchase`); validate then answers `consumptionState: 0`. */
  consumed: boolean;
  /** What the app receives (Poolakey `originalJson`, `dataSignature`): the purchase JSON and its base64 signature. */
  purchaseData: string;
  dataSignature: string | null;
}

export interface FakeMarketplaceRequest {
  method: string;
  path: string;
  contentType: string | null;
  auth: 'static_secret' | 'bearer' | 'query' | 'none';
  grantType?: string;
  at: number;
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
export const token = (bytes = 24) => randomBytes(bytes).toString('base64url');

export function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString('utf8') || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export const decode = (part: string): string | undefined => {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
};
