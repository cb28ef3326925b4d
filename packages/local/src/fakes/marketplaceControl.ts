/**
 * The fake marketplace's control routes (local only, DESIGN §6; docs/marketplace.md), which tests and scripted demos
 * use to play the buyer and the marketplace: mint a purchase, bill the next period, refund, inject faults, and list
 * the calls the fake received.
 *
 * - `POST /purchases` `{ productId, kind: 'inapp'|'subscription', developerPayload?, validUntil? (epoch ms, default
 *   30 days on), autoRenewing? (default true), packageName? }` → `{ purchaseToken, validUntil, purchaseData,
 *   dataSignature }`: what the app receives from the marketplace (Poolakey's `purchaseToken`, `originalJson` and
 *   `dataSignature`). `purchaseData` is the purchase's JSON (`orderId`, `packageName`, `productId`, `purchaseTime`,
 *   `purchaseState`, `developerPayload`, `purchaseToken`, and `autoRenewing` for a subscription), `dataSignature` its
 *   base64 RSA-SHA1 signature under the fake's key pair (`GET /public-key`: its public half, base64 X.509).
 * - `POST /purchases/{token}/renew` `{ validUntil }` (later than the current one): the next period was billed.
 * - `POST /purchases/{token}/refund`: the marketplace refunded it: the in-app validate API answers it with
 *   `purchaseState: 1` (providers.md §2), the subscription status API 404, from now on.
 * - `POST /purchases/{token}/consume`: the app consumed an in-app purchase (Poolakey `consumePurchase`): validate
 *   answers `consumptionState: 0` from now on; a subscription cannot be consumed (400).
 * - `POST /purchases/{token}/cancel` `{ validUntil? }`: the marketplace ended a subscription early (revoked it): its
 *   period ends at `validUntil` (default now; never later than it was) and it no longer renews.
 * - `POST /faults` `{ status?, count? (1-100, default 1), delayMs? }`: the next `count` API and token calls answer
 *   `status` (401, 403, 500, 503, ...) and/or answer `delayMs` late (beyond the client's timeout: a timeout).
 * - `GET /requests` → `{ items: [{ method, path, contentType, auth, grantType?, at }] }`, newest last.
 */
import { sign } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  decode,
  type FakeMarketplaceRequest,
  type FakePurchase,
  json,
  type MarketplaceFakeOptions,
  parseJson,
  token,
} from './marketplaceState';

const DAY_MS = 86_400_000;

export function controlRoutes(state: {
  purchases: Map<string, FakePurchase>;
  faults: Array<{ status?: number; delayMs?: number }>;
  requests: FakeMarketplaceRequest[];
  options: MarketplaceFakeOptions;
}) {
  const { purchases, faults, requests, options } = state;

  function mint(res: ServerResponse, input: Record<string, unknown> | undefined) {
    const kind = input?.kind ?? 'subscription';
    const validUntil = input?.validUntil;
    if (!input || typeof input.productId !== 'string' || !input.productId || (kind !== 'inapp' && kind !== 'subscription')) {
      return json(res, 400, {
        detail: "send { productId, kind: 'inapp'|'subscription', developerPayload?, validUntil? (epoch ms), autoRenewing? }",
      });
    }
    if (validUntil !== undefined && (typeof validUntil !== 'number' || !Number.isInteger(validUntil))) {
      return json(res, 400, { detail: 'validUntil is epoch ms' });
    }
    const now = options.now();
    const fields = {
      orderId: `BZR.${token(9)}`,
      packageName: typeof input.packageName === 'string' ? input.packageName : options.packageName,
      productId: input.productId,
      purchaseTime: now,
      purchaseState: 0,
      developerPayload: typeof input.developerPayload === 'string' ? input.developerPayload : '',
      purchaseToken: token(),
      ...(kind === 'subscription' ? { autoRenewing: input.autoRenewing !== false } : {}),
    };
    // The app gets this text and its signature byte for byte; the service checks the signature over exactly it.
    const purchaseData = JSON.stringify(fields);
    const key = options.signing?.privateKey;
    const dataSignature = key ? sign('RSA-SHA1', Buffer.from(purchaseData, 'utf8'), key).toString('base64') : null;
    const purchase: FakePurchase = {
      token: fields.purchaseToken,
      orderId: fields.orderId,
      packageName: fields.packageName,
      productId: fields.productId,
      kind,
      developerPayload: fields.developerPayload,
      purchaseTime: now,
      validUntil: (validUntil as number | undefined) ?? now + 30 * DAY_MS,
      autoRenewing: input.autoRenewing !== false,
      refunded: false,
      consumed: false,
      purchaseData,
      dataSignature,
    };
    purchases.set(purchase.token, purchase);
    return json(res, 200, {
      purchaseToken: purchase.token,
      validUntil: kind === 'subscription' ? purchase.validUntil : null,
      purchaseData,
      dataSignature,
    });
  }

  function fault(res: ServerResponse, input: Record<string, unknown> | undefined) {
    const status = input?.status;
    const count = input?.count ?? 1;
    const delayMs = input?.delayMs;
    const valid = Number.isInteger(count) && (count as number) >= 1 && (count as number) <= 100;
    if (!valid || (status !== undefined && !Number.isInteger(status)) || (delayMs !== undefined && !Number.isInteger(delayMs))) {
      return json(res, 400, { detail: 'send { status: 401|403|500|503|..., count?: 1-100, delayMs? }' });
    }
    for (let i = 0; i < (count as number); i++)
      faults.push({ status: status as number | undefined, delayMs: delayMs as number | undefined });
    return json(res, 200, { pending: faults.length });
  }

  /** The marketplace ended subscription `purchase` early: at `validUntil` (default now, never later), not renewing. */
  function cancel(res: ServerResponse, purchase: FakePurchase, body: Buffer) {
    const at = parseJson(body)?.validUntil ?? options.now();
    if (purchase.kind !== 'subscription' || typeof at !== 'number' || !Number.isInteger(at)) {
      return json(res, 400, { detail: 'cancel a subscription, with { validUntil? } (epoch ms, default now)' });
    }
    purchase.validUntil = Math.min(purchase.validUntil, at);
    purchase.autoRenewing = false;
    return json(res, 200, { purchaseToken: purchase.token, validUntil: purchase.validUntil, autoRenewing: false });
  }

  function purchaseAction(res: ServerResponse, purchase: FakePurchase | undefined, action: string, body: Buffer) {
    if (!purchase) return json(res, 404, { detail: 'no such purchase token' });
    if (action === 'refund') {
      purchase.refunded = true;
      return json(res, 200, { purchaseToken: purchase.token, refunded: true });
    }
    if (action === 'cancel') return cancel(res, purchase, body);
    if (action === 'consume') {
      if (purchase.kind !== 'inapp') return json(res, 400, { detail: 'only an in-app purchase is consumed' });
      purchase.consumed = true;
      return json(res, 200, { purchaseToken: purchase.token, consumed: true });
    }
    const validUntil = parseJson(body)?.validUntil;
    if (purchase.kind !== 'subscription' || typeof validUntil !== 'number' || validUntil <= purchase.validUntil) {
      return json(res, 400, { detail: 'renew a subscription with { validUntil } (epoch ms) later than its current one' });
    }
    purchase.validUntil = validUntil;
    return json(res, 200, { purchaseToken: purchase.token, validUntil });
  }

  /** The control routes; false when `path` is none of them. */
  function control(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): boolean {
    const m = /^\/purchases\/([^/]+)\/(renew|refund|cancel|consume)$/.exec(path);
    if (path === '/requests' && req.method === 'GET') json(res, 200, { items: requests });
    else if (path === '/public-key' && req.method === 'GET') json(res, 200, { publicKey: options.signing?.publicKey ?? null });
    else if (req.method !== 'POST') return false;
    else if (path === '/purchases') mint(res, parseJson(body));
    else if (path === '/faults') fault(res, parseJson(body));
    else if (m) purchaseAction(res, purchases.get(decode(m[1] as string) ?? ''), m[2] as string, body);
    else return false;
    return true;
  }

  return control;
}
