/**
 * Test support for marketplace purchases, all over HTTP as the app and the marketplace would: buy a plan with
 * `paymentMethod: 'marketplace'`, start it, play the buyer on the fake marketplace (mint a purchase token carrying the
 * order's developerPayload, with the purchase data and signature the app receives), verify with them; plus the
 * fake's control routes (renew, refund, cancel, faults) and its request log.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { DAY_MS, PLAN_30, purchase } from './payments';
import { type ApiResponse, call, type Session, signIn, type TestStack } from './stack';

export const SKU_30 = 'mathisland_sub_1m';
export const SKU_90 = 'mathisland_sub_3m';

/** `POST /api/subscription/purchase` with `paymentMethod: 'marketplace'`. */
export const buyOnMarketplace = (
  stack: TestStack,
  session: Session,
  planId: number,
  extra: Record<string, unknown> = {},
  key = randomUUID(),
) => purchase(stack, session, { planId, paymentMethod: 'marketplace', ...extra }, key);

/** `POST /api/payment/marketplace/orders/{id}/start`. */
export const startOrder = (stack: TestStack, session: Session, orderId: number | string) =>
  call(stack, 'POST', `/api/payment/marketplace/orders/${orderId}/start`, { token: session.accessToken });

/** What the app received with a purchase: Poolakey's `originalJson` and `dataSignature`. */
export interface SignedData {
  purchaseData?: string;
  dataSignature?: string;
}

/** The purchase data and signature the fake marketplace handed the app with `purchaseToken` (none for a token it never minted). */
export function signedDataOf(stack: TestStack, purchaseToken: string): SignedData {
  const minted = stack.marketplace.purchases.get(purchaseToken);
  return minted?.dataSignature ? { purchaseData: minted.purchaseData, dataSignature: minted.dataSignature } : {};
}

/**
 * `POST /api/payment/marketplace/verify` `{ orderId, purchaseToken, purchaseData, dataSignature }`, as the app sends
 * it: with the signed data the marketplace gave it for that token, unless `signed` says otherwise.
 */
export const verifyPurchase = (
  stack: TestStack,
  session: Session,
  orderId: number,
  purchaseToken: string,
  signed: SignedData = signedDataOf(stack, purchaseToken),
): Promise<ApiResponse> =>
  call(stack, 'POST', '/api/payment/marketplace/verify', { token: session.accessToken, body: { orderId, purchaseToken, ...signed } });

/** The buyer pays in the marketplace app: `POST /_local/marketplace/purchases`; returns the purchase token. */
export async function mintPurchase(
  stack: TestStack,
  body: { productId: string; kind?: 'inapp' | 'subscription'; developerPayload?: string; validUntil?: number; autoRenewing?: boolean },
): Promise<string> {
  const res = await call(stack, 'POST', '/_local/marketplace/purchases', { body });
  expect(res.status, res.text).toBe(200);
  return res.body.purchaseToken;
}

/** The marketplace billed the next period. */
export async function renewOnMarketplace(stack: TestStack, purchaseToken: string, validUntil: number): Promise<void> {
  const res = await call(stack, 'POST', `/_local/marketplace/purchases/${encodeURIComponent(purchaseToken)}/renew`, {
    body: { validUntil },
  });
  expect(res.status, res.text).toBe(200);
}

/** The marketplace cancelled the subscription early: its period ends at `validUntil` (default now), no renewal. */
export async function cancelOnMarketplace(stack: TestStack, purchaseToken: string, validUntil?: number): Promise<void> {
  const res = await call(stack, 'POST', `/_local/marketplace/purchases/${encodeURIComponent(purchaseToken)}/cancel`, {
    body: validUntil === undefined ? {} : { validUntil },
  });
  expect(res.status, res.text).toBe(200);
}

/** The marketplace refunded the purchase (from now on an in-app purchase validates as `purchaseState: 1`, a subscription answers 404). */
export async function refundOnMarketplace(stack: TestStack, purchaseToken: string): Promise<void> {
  const res = await call(stack, 'POST', `/_local/marketplace/purchases/${encodeURIComponent(purchaseToken)}/refund`);
  expect(res.status, res.text).toBe(200);
}

/** The next `count` marketplace API or token calls answer `status` (and/or `delayMs` late). */
export async function injectFault(stack: TestStack, fault: { status?: number; count?: number; delayMs?: number }): Promise<void> {
  const res = await call(stack, 'POST', '/_local/marketplace/faults', { body: fault });
  expect(res.status, res.text).toBe(200);
}

/**
 * Buys `planId` through the marketplace, starts the order and mints a purchase of its SKU with the order's
 * developerPayload; returns what the next step (verify) needs.
 */
export async function boughtAndPaidInApp(
  stack: TestStack,
  session: Session,
  planId: number,
  purchaseFields: { kind?: 'inapp' | 'subscription'; validUntil?: number; developerPayload?: string } = {},
): Promise<{ orderId: number; purchaseToken: string; sku: string; developerPayload: string }> {
  const bought = await buyOnMarketplace(stack, session, planId);
  expect(bought.status, bought.text).toBe(201);
  const started = await startOrder(stack, session, bought.body.orderId);
  expect(started.status, started.text).toBe(200);
  const purchaseToken = await mintPurchase(stack, {
    productId: started.body.marketplaceSku,
    kind: purchaseFields.kind ?? started.body.productType,
    developerPayload: purchaseFields.developerPayload ?? started.body.developerPayload,
    ...(purchaseFields.validUntil === undefined ? {} : { validUntil: purchaseFields.validUntil }),
  });
  return { orderId: bought.body.orderId, purchaseToken, sku: started.body.marketplaceSku, developerPayload: started.body.developerPayload };
}

/** The calls the fake marketplace received since `from` (an index of its log). */
export const marketplaceCalls = (stack: TestStack, from = 0) => stack.marketplace.requests.slice(from);

/**
 * A new learner with a verified marketplace subscription of `planId` (default PLAN_30) whose period ends `days` (default
 * 30) from the stack's now; `autoRenewing: false` makes the marketplace not renew it. Returns the session, the order,
 * the purchase, its `validUntil` and the subscription end the verification answered (epoch ms).
 */
export async function marketplaceSubscriber(stack: TestStack, options: { days?: number; autoRenewing?: boolean; planId?: number } = {}) {
  const s = await signIn(stack);
  const validUntil = stack.clock.now() + (options.days ?? 30) * DAY_MS;
  const paid = await boughtAndPaidInApp(stack, s, options.planId ?? PLAN_30, { validUntil });
  if (options.autoRenewing === false) stack.marketplace.purchases.get(paid.purchaseToken)!.autoRenewing = false;
  const res = await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken);
  expect(res.status, res.text).toBe(200);
  return { s, ...paid, validUntil, expiresAt: Date.parse(res.body.expiresAt) };
}

/** Moves the stack's clock to `at` (epoch ms) and signs `sessions` in again (access tokens last an hour). */
export async function moveClockTo(stack: TestStack, at: number, ...sessions: Session[]): Promise<void> {
  stack.clock.set(at);
  for (const s of sessions) Object.assign(s, await signIn(stack, s.phone));
}
