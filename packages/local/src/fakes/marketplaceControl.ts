/**
 * The fake marketplace's control routes (local only, DESIGN §6; docs/marketplace.md), which tests and scripted demos
 * use to play the buyer and the marketplace: mint a purchase, bill the next period, refund, inject faults, and list
 * the calls the fake received.
 *
 * - `POST /purchases` `{ productId, kind: 'inapp'|'subscription', developerPayload?, validUntil? (epoch ms, default
 *   30 days on), autoRenewing? (default true), packageName? }` → `{ purchaseToken, validUntil }`.
 * - `POST /purchases/{token}/renew` `{ validUntil }` (later than the current one): the next period was billed.
 * - `POST /purchases/{token}/refund`: validate and subscription status answer 404 from now on.
 * - `POST /faults` `{ status?, count? (1-100, default 1), delayMs? }`: the next `count` API and token calls answer
 *   `status` (401, 403, 500, 503, ...) and/or answer `delayMs` late (beyond the client's timeout: a timeout).
 * - `GET /requests` → `{ items: [{ method, path, contentType, auth, grantType?, at }] }`, newest last.
 */
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
    const purchase: FakePurchase = {
      token: token(),
      packageName: typeof input.packageName === 'string' ? input.packageName : options.packageName,
      productId: input.productId,
      kind,
      developerPayload: typeof input.developerPayload === 'string' ? input.developerPayload : '',
      purchaseTime: now,
      validUntil: (validUntil as number | undefined) ?? now + 30 * DAY_MS,
      autoRenewing: input.autoRenewing !== false,
      refunded: false,
    };
    purchases.set(purchase.token, purchase);
    return json(res, 200, { purchaseToken: purchase.token, validUntil: kind === 'subscription' ? purchase.validUntil : null });
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

  function renewOrRefund(res: ServerResponse, purchase: FakePurchase | undefined, action: string, body: Buffer) {
    if (!purchase) return json(res, 404, { detail: 'no such purchase token' });
    if (action === 'refund') {
      purchase.refunded = true;
      return json(res, 200, { purchaseToken: purchase.token, refunded: true });
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
    const m = /^\/purchases\/([^/]+)\/(renew|refund)$/.exec(path);
    if (path === '/requests' && req.method === 'GET') json(res, 200, { items: requests });
    else if (req.method !== 'POST') return false;
    else if (path === '/purchases') mint(res, parseJson(body));
    else if (path === '/faults') fault(res, parseJson(body));
    else if (m) renewOrRefund(res, purchases.get(decode(m[1] as string) ?? ''), m[2] as string, body);
    else return false;
    return true;
  }

  return control;
}
