/**
 * Issue 4 §6 and §7: discount codes (arithmetic, one per order, only before the gateway step, limits, validity,
 * 100% codes), offers, and the referral program (bind once, commission on the first real payment only).
 */
import { randomUUID } from 'node:crypto';
import { getUser } from '@mathisland/core/auth';
import {
  getDiscount,
  getOrder,
  getPlan,
  handleCallback,
  paymentUrl,
  purchase as purchaseOrder,
  readRedemption,
  saveDiscountCode,
  savePlan,
  startPayment,
} from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { commandOf, conflictingOnce, failing, interleaved } from './support/interleave';
import {
  admin,
  buyAndPay,
  DAY_MS,
  eventsOf,
  fetchManual,
  openPayLink,
  PLAN_30,
  PLAN_90,
  pressOnGateway,
  purchase,
  staffSession,
  status,
} from './support/payments';
import { call, type Session, signIn, startTestStack, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

const redeem = (stack: TestStack, s: Session, code: string, orderId: number) =>
  call(stack, 'POST', '/api/discounts/redeem', { token: s.accessToken, body: { code, orderId } });

const newCode = (prefix: string) => `${prefix}${randomUUID().slice(0, 8)}`.toUpperCase();

describe('discount codes', () => {
  const stack = useStack({ now: NOW });

  it('takes whole toman off the list price (rounded down) at purchase, and the gateway is asked for the rest in rial', async () => {
    const s = await signIn(stack);
    const res = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway', discountCode: ' welcome10 ' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ listPrice: 379_000, discount: 37_900, amount: 341_100 });
    const startPay = await openPayLink(res.body.paymentUrl);
    expect(stack.gateway.payments.get(startPay.split('/').at(-1)!)?.amount).toBe(3_411_000);
    await fetchManual(await pressOnGateway(startPay, 'pay'));
    const invoice = (await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken })).body.items[0];
    expect(invoice).toMatchObject({ listPrice: 379_000, discountCode: 'WELCOME10', discount: 37_900, amount: 341_100 });
    const applied = (await eventsOf(stack, res.body.orderId)).find((e) => e.kind === 'discount_applied');
    expect(applied).toMatchObject({ discountCode: 'WELCOME10', percent: 10, discount: 37_900, amount: 341_100 });

    // An odd price: 15% of 99 999 is 14 999.85 toman → 14 999 off, 85 000 to pay.
    await savePlan(stack.deps.db, { ...(await getPlan(stack.deps, PLAN_30))!, id: 50, price: 99_999, marketplaceSku: undefined });
    const code = newCode('ODD');
    await saveDiscountCode(stack.deps.db, { code, title: 'odd', percent: 15, advertised: false, active: true });
    const odd = await purchase(stack, await signIn(stack), { planId: 50, paymentMethod: 'gateway', discountCode: code });
    expect(odd.body).toMatchObject({ listPrice: 99_999, discount: 14_999, amount: 85_000 });
  });

  it('applies a code to a pending order by POST /api/discounts/redeem, once per order, only before the gateway step', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const first = newCode('A');
    const second = newCode('B');
    await saveDiscountCode(stack.deps.db, { code: first, title: 'a', percent: 20, advertised: false, active: true });
    await saveDiscountCode(stack.deps.db, { code: second, title: 'b', percent: 30, advertised: false, active: true });

    const applied = await redeem(stack, s, first.toLowerCase(), bought.body.orderId);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({
      orderId: bought.body.orderId,
      status: 'pending',
      discountCode: first,
      discount: 29_800,
      amount: 119_200,
    });
    const again = await redeem(stack, s, second, bought.body.orderId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('discount_not_allowed');

    const started = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await openPayLink(started.body.paymentUrl);
    const late = await redeem(stack, s, second, started.body.orderId);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'discount_not_allowed', detail: expect.stringContaining('before') });

    const other = await signIn(stack);
    expect((await redeem(stack, other, second, bought.body.orderId)).status).toBe(404);
    const fresh = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    expect((await redeem(stack, s, 'NO-SUCH-CODE', fresh.body.orderId)).body.code).toBe('discount_invalid');

    const { orderId: paidId } = await buyAndPay(stack, s, PLAN_30);
    const onPaid = await redeem(stack, s, second, paidId);
    expect(onPaid.status).toBe(409);
    expect(onPaid.body.code).toBe('already_paid');
    // The redemption record exists for the applied code only.
    const record = await readRedemption(stack.deps.db, first, bought.body.orderId);
    expect(record).toMatchObject({ code: first, orderId: bought.body.orderId, userId: s.userId, percent: 20, discount: 29_800 });
    expect(await readRedemption(stack.deps.db, second, bought.body.orderId)).toBeUndefined();
  });

  it('a code applied while the pay link asks the gateway: the gateway is asked again for the new amount, and paying that pays the order', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    const { orderId, paymentUrl: url } = bought.body;
    const code = newCode('RACE');
    await saveDiscountCode(stack.deps.db, { code, title: 'race', percent: 10, advertised: false, active: true });
    // The parent taps "apply code" just as the pay link's first visit has read the order and is asking the gateway.
    const deps = interleaved(stack.deps, commandOf('GetCommand', `"ORDER#${orderId}"`), async () => {
      const applied = await redeem(stack, s, code, orderId);
      expect(applied.status, applied.text).toBe(200);
    });
    const link = await startPayment(deps, orderId, new URL(url).searchParams.get('sig') ?? undefined);
    expect(link.kind).toBe('gateway');
    const authority = (link as { url: string }).url.split('/').at(-1)!;
    expect(stack.gateway.payments.get(authority)?.amount).toBe(3_411_000); // 341 100 toman, in rial
    expect((await getOrder(stack.deps, orderId)).authority).toBe(authority);

    await fetchManual(await pressOnGateway((link as { url: string }).url, 'pay'));
    expect(await getOrder(stack.deps, orderId)).toMatchObject({ status: 'paid', amount: 341_100, discountCode: code });
    expect((await eventsOf(stack, orderId)).filter((e) => e.kind === 'gateway_redirect')).toEqual([
      expect.objectContaining({ authority, amount: 341_100 }),
    ]);
  });

  it('enforces total and per-user limits, the validity window and the plan list', async () => {
    const once = newCode('ONCE');
    await saveDiscountCode(stack.deps.db, { code: once, title: 'once', percent: 10, maxUses: 1, advertised: false, active: true });
    const [a, b] = [await signIn(stack), await signIn(stack)];
    // Two buyers race for the last use: exactly one gets it.
    const raced = await Promise.all(
      [a, b].map((s) => purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: once })),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(raced.find((r) => r.status === 400)!.body).toMatchObject({ code: 'discount_invalid' });

    const perUser = newCode('USER');
    await saveDiscountCode(stack.deps.db, { code: perUser, title: 'u', percent: 10, perUserLimit: 1, advertised: false, active: true });
    expect((await purchase(stack, a, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: perUser })).status).toBe(201);
    const twice = await purchase(stack, a, { planId: PLAN_90, paymentMethod: 'gateway', discountCode: perUser });
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toBe('You have already used this discount code');
    expect((await purchase(stack, b, { planId: PLAN_90, paymentMethod: 'gateway', discountCode: perUser })).status).toBe(201);

    const future = newCode('SOON');
    await saveDiscountCode(stack.deps.db, {
      code: future,
      title: 's',
      percent: 10,
      validFrom: NOW + DAY_MS,
      advertised: false,
      active: true,
    });
    expect((await purchase(stack, a, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: future })).body.detail).toBe(
      'This discount code is not valid yet',
    );
    const past = newCode('OLD');
    await saveDiscountCode(stack.deps.db, { code: past, title: 'o', percent: 10, validUntil: NOW, advertised: false, active: true });
    expect((await purchase(stack, a, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: past })).body.detail).toBe(
      'This discount code has expired',
    );
    const only90 = newCode('P90');
    await saveDiscountCode(stack.deps.db, { code: only90, title: 'p', percent: 10, planIds: [PLAN_90], advertised: false, active: true });
    expect((await purchase(stack, a, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: only90 })).body.detail).toBe(
      'This discount code is not for this plan',
    );
    const off = newCode('OFF');
    await saveDiscountCode(stack.deps.db, { code: off, title: 'x', percent: 10, advertised: false, active: false });
    expect((await purchase(stack, a, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: off })).body.code).toBe('discount_invalid');
  });

  it('gives a use back when the order ends unpaid, and takes it again if that order is paid after all', async () => {
    const code = newCode('BACK');
    await saveDiscountCode(stack.deps.db, { code, title: 'back', percent: 10, maxUses: 1, advertised: false, active: true });
    const uses = async () => (await getDiscount(stack.deps, code))?.uses;
    const redemption = (orderId: number) => readRedemption(stack.deps.db, code, orderId);
    const [a, b, c] = [await signIn(stack), await signIn(stack), await signIn(stack)];

    // A takes the only use. While A's gateway page is still open, a callback saying NOK arrives (forged, or a
    // double tab): the gateway verifies the authority as unpaid, the order fails and the use comes back.
    const aOrder = await purchase(stack, a, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: code });
    expect(aOrder.status, aOrder.text).toBe(201);
    expect(await uses()).toBe(1);
    const startPay = await openPayLink(aOrder.body.paymentUrl);
    const authority = startPay.split('/').at(-1) as string;
    const nok = await fetchManual(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${authority}&Status=NOK`);
    expect(nok.headers.get('location')).toContain('status=failed');
    expect(await uses()).toBe(0);
    expect((await redemption(aOrder.body.orderId))?.releasedAt).toBeDefined();

    // B can use it now, and then it is used up for C.
    const bOrder = await purchase(stack, b, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: code });
    expect(bOrder.status, bOrder.text).toBe(201);
    expect((await purchase(stack, c, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: code })).status).toBe(400);

    // A presses Pay on the page still open: the failed order is paid after all (money taken is always granted)
    // and the use is taken again, over the limit if need be.
    const late = await fetchManual(await pressOnGateway(startPay, 'pay'));
    expect(late.headers.get('location')).toContain('status=paid');
    expect(await uses()).toBe(2);
    expect((await redemption(aOrder.body.orderId))?.releasedAt).toBeUndefined();
    expect((await status(stack, a)).active).toBe(true);

    // Staff cancelling B's pending order gives B's use back once, even when asked twice.
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    expect((await admin(stack, cookie, 'POST', `/api/admin/orders/${bOrder.body.orderId}/cancel`)).status).toBe(200);
    await admin(stack, cookie, 'POST', `/api/admin/orders/${bOrder.body.orderId}/cancel`);
    expect(await uses()).toBe(1);
  });

  it('fails a cancelled payment even when a busy code’s counters cancel the first try: the callback says failed, once', async () => {
    const code = newCode('BUSY');
    await saveDiscountCode(stack.deps.db, { code, title: 'busy', percent: 10, advertised: false, active: true });
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: code });
    const startPay = await openPayLink(bought.body.paymentUrl);
    const callback = new URL(await pressOnGateway(startPay, 'cancel'));
    // Another buyer's transaction holds the code's counter as this one is sent (TransactionConflict).
    const deps = conflictingOnce(stack.deps, commandOf('TransactWriteCommand', '":failed"'));
    const settled = await handleCallback(deps, callback.searchParams.get('Authority')!, callback.searchParams.get('Status')!);
    expect(settled).toEqual({ orderId: bought.body.orderId, status: 'failed' });
    expect((await getDiscount(stack.deps, code))?.uses).toBe(0);
    const results = (await eventsOf(stack, bought.body.orderId)).filter((e) => e.kind === 'payment_result');
    expect(results).toEqual([expect.objectContaining({ result: 'failed', ignored: false, reason: 'not_paid' })]);
  });

  it('makes the order paid with no gateway for a 100% code (at purchase and by redeem)', async () => {
    const free = newCode('FREE');
    await saveDiscountCode(stack.deps.db, { code: free, title: 'free', percent: 100, perUserLimit: 5, advertised: false, active: true });
    const s = await signIn(stack);
    const gatewayPayments = stack.gateway.payments.size;
    const key = randomUUID();
    const res = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free }, key);
    expect(res.status).toBe(201);
    // Issue 29 §1: the answer says it is paid, gives no pay link, and the subscription it granted (the status shape).
    const granted = await status(stack, s);
    expect(granted).toMatchObject({ status: 'active', expiresAt: new Date(NOW + 30 * DAY_MS).toISOString() });
    expect(res.body).toEqual({
      orderId: expect.any(Number),
      status: 'paid',
      paymentUrl: null,
      planId: PLAN_30,
      listPrice: 149_000,
      discount: 149_000,
      amount: 0,
      subscription: granted,
    });
    // A replay answers the same, even after the subscription changed (another free order extends it).
    await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free });
    const replayed = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free }, key);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(res.body);
    // The order's own pay link still only tells where it stands.
    const link = paymentUrl(stack.deps, res.body.orderId);
    expect(await openPayLink(link)).toBe(`${stack.baseUrl}/?orderId=${res.body.orderId}&status=paid`);
    expect(stack.gateway.payments.size).toBe(gatewayPayments);
    const result = (await eventsOf(stack, res.body.orderId)).find((e) => e.kind === 'payment_result');
    expect(result).toMatchObject({ via: 'discount', result: 'paid', ignored: false });
    expect((await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken })).body.items[0]).toMatchObject({
      amount: 0,
      status: 'paid',
    });

    const pending = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    expect(pending.body).toMatchObject({ status: 'pending', paymentUrl: expect.any(String), subscription: null });
    const redeemed = await redeem(stack, s, free, pending.body.orderId);
    expect(redeemed.body).toMatchObject({ status: 'paid', amount: 0, paymentUrl: null });
    expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 150 * DAY_MS).toISOString());
  });

  it('pays a free order on its replay when the first request stopped before paying it', async () => {
    const free = newCode('FREE');
    await saveDiscountCode(stack.deps.db, { code: free, title: 'free', percent: 100, advertised: false, active: true });
    const s = await signIn(stack);
    const key = randomUUID();
    // The first request dies right after creating the order: the paying transaction never reaches the table.
    const crash = new Error('the Lambda stopped here');
    const crashing = failing(stack.deps, commandOf('TransactWriteCommand', 'paidVia'), crash);
    const user = (await getUser(stack.deps.db, s.userId))!;
    await expect(
      purchaseOrder(crashing, user, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free, idempotencyKey: key }),
    ).rejects.toBe(crash);
    expect((await status(stack, s)).active).toBe(false);

    const replayed = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free }, key);
    expect(replayed.status).toBe(201);
    const granted = await status(stack, s);
    expect(granted).toMatchObject({ status: 'active', expiresAt: new Date(NOW + 30 * DAY_MS).toISOString() });
    expect(replayed.body).toMatchObject({ status: 'paid', paymentUrl: null, amount: 0, subscription: granted });
    expect((await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free }, key)).body).toEqual(replayed.body);
    const results = (await eventsOf(stack, replayed.body.orderId)).filter((e) => e.kind === 'payment_result');
    expect(results).toEqual([expect.objectContaining({ via: 'discount', result: 'paid', ignored: false })]);
  });

  it('sells for free even when the gateway is off, and still refuses what has to be paid', async () => {
    const off = await startTestStack({ now: NOW, env: { GATEWAY_MERCHANT_ID: '' } });
    try {
      const free = newCode('FREE');
      await saveDiscountCode(off.deps.db, { code: free, title: 'free', percent: 100, advertised: false, active: true });
      const s = await signIn(off);
      expect((await purchase(off, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free })).status).toBe(201);
      expect((await status(off, s)).active).toBe(true);
      expect((await purchase(off, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' })).status).toBe(503);
    } finally {
      await off.close();
    }
  });

  it('lists advertised codes valid now as offers', async () => {
    const hidden = newCode('HID');
    const ended = newCode('END');
    const shown = newCode('SHOW');
    await saveDiscountCode(stack.deps.db, { code: hidden, title: 'h', percent: 5, advertised: false, active: true });
    await saveDiscountCode(stack.deps.db, { code: ended, title: 'e', percent: 5, validUntil: NOW - 1, advertised: true, active: true });
    await saveDiscountCode(stack.deps.db, {
      code: shown,
      title: 'نوروز',
      percent: 25,
      validUntil: NOW + 10 * DAY_MS,
      planIds: [PLAN_90],
      advertised: true,
      active: true,
    });
    const res = await call(stack, 'GET', '/api/offers');
    expect(res.status).toBe(200);
    const codes = res.body.items.map((o: any) => o.code);
    expect(codes).toContain('WELCOME10');
    expect(codes).not.toContain(hidden);
    expect(codes).not.toContain(ended);
    expect(res.body.items.find((o: any) => o.code === shown)).toEqual({
      code: shown,
      title: 'نوروز',
      percent: 25,
      validUntil: new Date(NOW + 10 * DAY_MS).toISOString(),
      planIds: [PLAN_90],
    });
  });
});

describe('referral', () => {
  const stack = useStack({ now: NOW });

  const affiliate = async (s: Session) => (await call(stack, 'GET', '/api/affiliate', { token: s.accessToken })).body;
  const bind = (s: Session, code: string) => call(stack, 'POST', '/api/affiliate/referrer', { token: s.accessToken, body: { code } });

  it('gives each user one code; binds an invitee once; refuses self-referral and unknown codes', async () => {
    const referrer = await signIn(stack);
    const view = await affiliate(referrer);
    expect(view).toMatchObject({ code: expect.stringMatching(/^[A-Z2-9]{8}$/), commissionPercent: 10, hasReferrer: false, invitees: [] });
    expect(view.commission).toEqual({ earned: 0, reversed: 0 });
    expect((await affiliate(referrer)).code).toBe(view.code);

    expect((await bind(referrer, view.code)).body).toMatchObject({
      code: 'validation_error',
      detail: 'You cannot use your own referral code',
    });
    expect((await bind(referrer, 'NOPE2345')).status).toBe(400);

    const invitee = await signIn(stack);
    const bound = await bind(invitee, view.code.toLowerCase());
    expect(bound.status, bound.text).toBe(200);
    expect(bound.body.referrer).toMatch(/^User\d{6}$/);
    expect((await bind(invitee, view.code)).status).toBe(200);
    const other = await affiliate(await signIn(stack));
    const rebind = await bind(invitee, other.code);
    expect(rebind.status).toBe(409);
    expect(rebind.body.code).toBe('referrer_already_set');
    expect((await affiliate(invitee)).hasReferrer).toBe(true);
    expect((await affiliate(referrer)).invitees).toEqual([
      { publicId: expect.stringMatching(/^User/), boundAt: new Date(NOW).toISOString(), commission: 0 },
    ]);
  });

  it('pays commission on the invitee’s first real payment only (not a 100% code), on what was paid', async () => {
    const referrer = await signIn(stack);
    const { code } = await affiliate(referrer);
    const invitee = await signIn(stack);
    await bind(invitee, code);

    const free = newCode('FREE');
    await saveDiscountCode(stack.deps.db, { code: free, title: 'free', percent: 100, advertised: false, active: true });
    await purchase(stack, invitee, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: free });
    expect((await affiliate(referrer)).commission.earned).toBe(0);

    // First real payment, with WELCOME10: 10% of 341 100 paid = 34 110.
    const bought = await purchase(stack, invitee, { planId: PLAN_90, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    await fetchManual(await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay'));
    let view = await affiliate(referrer);
    expect(view.commission).toEqual({ earned: 34_110, reversed: 0 });
    expect(view.invitees[0].commission).toBe(34_110);

    // A second real payment earns nothing more.
    await buyAndPay(stack, invitee, PLAN_30);
    view = await affiliate(referrer);
    expect(view.commission.earned).toBe(34_110);
  });

  it('pays no commission when the first real payment came before binding', async () => {
    const referrer = await signIn(stack);
    const { code } = await affiliate(referrer);
    const invitee = await signIn(stack);
    await buyAndPay(stack, invitee, PLAN_30);
    expect((await bind(invitee, code)).status).toBe(200);
    await buyAndPay(stack, invitee, PLAN_30);
    expect((await affiliate(referrer)).commission.earned).toBe(0);
  });
});
