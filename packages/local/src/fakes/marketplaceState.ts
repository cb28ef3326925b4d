/** What the fake marketplace's modules share (marketplace.ts, marketplaceControl.ts): its state types and JSON helpers. */
import { randomBytes } from 'node:crypto';
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
}

export interface FakePurchase {
  token: string;
  packageName: string;
  productId: string;
  kind: 'inapp' | 'subscription';
  developerPayload: string;
  purchaseTime: number;
  validUntil: number;
  autoRenewing: boolean;
  refunded: boolean;
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
