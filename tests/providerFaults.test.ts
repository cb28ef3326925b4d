/**
 * The sms provider and the payment gateway failing the ways the real ones do (issue 13; providers.md §1, §3),
 * produced through the fakes' fault controls (`POST /_local/<fake>/faults`), and what the service answers:
 * the right 4xx when the input is the problem, otherwise a clear 503 with Retry-After, within the time budget,
 * with nothing half done (no code kept for a text never sent; an order left payable).
 */
import { getOrder } from '@mathisland/core/subscriptions';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_GATEWAY_MERCHANT_ID } from '../packages/local/src/stack';
import { addFigures } from './support/figures';
import { eventsOf, fetchManual, openPayLink, PLAN_30, pressOnGateway, purchase } from './support/payments';
import { call, newPhone, signIn, type TestStack, useStack } from './support/stack';

const fault = (stack: TestStack, fake: 'sms' | 'gateway' | 'llm', body: Record<string, unknown>) =>
  call(stack, 'POST', `/_local/${fake}/faults`, { body }).then((res) => {
    expect(res.status, res.text).toBe(200);
  });

const expect503 = (res: { status: number; body: any; headers: Headers }, code: string, label: string) => {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(503);
  expect(res.body.code, label).toBe(code);
  expect(Number(res.headers.get('retry-after')), label).toBeGreaterThan(0);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
};

/** A request answered as JSON, timed. */
async function timedJson(url: string, init: RequestInit = {}) {
  const t0 = performance.now();
  const res = await fetchManual(url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text, ms: performance.now() - t0 };
}

describe('sms provider faults', () => {
  const stack = useStack();
  afterAll(() => addFigures('faults', { smsFaults: stack.faultsInjected() }));
  const requestCode = (phone: string) => call(stack, 'POST', '/api/auth/otp/request', { body: { phone } });

  it('answers every documented refusal: 400 on phone for 411, else 503 sms_unavailable with Retry-After; no code is kept', async () => {
    const transient = [409, 429, 451, 500, 502, 503];
    const misconfigured = [401, 403, 418, 424, 428, 431, 432, 501];
    for (const status of [411, ...transient, ...misconfigured]) {
      const phone = newPhone();
      await fault(stack, 'sms', { status });
      const res = await requestCode(phone);
      if (status === 411) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_error', fields: { phone: [expect.any(String)] } });
      } else {
        expect503(res, 'sms_unavailable', `sms ${status}`);
        expect(Number(res.headers.get('retry-after')), `sms ${status}`).toBe(transient.includes(status) ? 60 : 300);
        expect(res.text).not.toMatch(/kavenegar|api.?key|credit/i);
      }
      // The code of a text never sent was dropped: asking again at once is not "too soon", and works.
      const again = await requestCode(phone);
      expect(again.status, `after ${status}: ${again.text}`).toBe(200);
      expect(stack.smsOutbox.filter((m) => m.phone === phone)).toHaveLength(1);
    }
  });

  it('answers 503 to a hanging, resetting or garbage-answering provider within its timeout', async () => {
    const cases = [
      { body: { kind: 'hang' }, min: 4_500, max: 8_000 },
      { body: { kind: 'reset' }, min: 0, max: 4_000 },
      { body: { kind: 'garbage' }, min: 0, max: 4_000 },
      { body: { kind: 'garbage', status: 502 }, min: 0, max: 4_000 },
    ];
    for (const c of cases) {
      await fault(stack, 'sms', c.body);
      const t0 = performance.now();
      const res = await requestCode(newPhone());
      const ms = performance.now() - t0;
      expect503(res, 'sms_unavailable', JSON.stringify(c.body));
      expect(ms).toBeGreaterThanOrEqual(c.min);
      expect(ms).toBeLessThan(c.max);
    }
    await fault(stack, 'sms', { kind: 'slow', delayMs: 800 });
    expect((await requestCode(newPhone())).status).toBe(200);
  });
});

describe('payment gateway faults', () => {
  const stack = useStack();
  afterAll(() => addFigures('faults', { gatewayFaults: stack.faultsInjected() }));

  it('answers 503 gateway_unavailable with Retry-After to every refusal of a payment start; the order stays payable', async () => {
    const learner = await signIn(stack);
    const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
    const faults = [
      { code: -9 },
      { code: -10 },
      { code: -11 },
      { code: -12 },
      { code: -15 },
      { code: -52 },
      { code: -12, status: 200 },
      { code: '-11', status: 403 },
      { status: 500 },
      { status: 502 },
      { status: 504 },
      { kind: 'garbage' },
      { kind: 'garbage', status: 502 },
      { kind: 'reset' },
    ];
    for (const f of faults) {
      await fault(stack, 'gateway', { ...f, path: 'request' });
      const res = await timedJson(bought.body.paymentUrl);
      expect503(res, 'gateway_unavailable', JSON.stringify(f));
      expect(res.ms).toBeLessThan(5_000);
    }
    const order = await getOrder(stack.deps, bought.body.orderId);
    expect(order).toMatchObject({ status: 'pending' });
    expect(order.authority).toBeUndefined();
    const failures = (await eventsOf(stack, bought.body.orderId)).filter((e) => e.kind === 'gateway_request_failed');
    expect(failures.map((e) => e.gatewayCode ?? null)).toEqual(expect.arrayContaining([-9, -10, -11, -12, -15, -52]));
    expect(await openPayLink(bought.body.paymentUrl)).toContain('/_local/gateway/pg/StartPay/');
  });

  it('leaves the order pending when verification meets trouble (503), fails it on a not-paid code, and pays it once the gateway answers', async () => {
    const learner = await signIn(stack);
    for (const f of [{ code: -11 }, { code: -12 }, { code: -15 }, { code: -52 }, { status: 503 }, { kind: 'garbage' }, { kind: 'reset' }]) {
      const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
      const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
      await fault(stack, 'gateway', { ...f, path: 'verify' });
      expect503(await timedJson(callbackUrl), 'gateway_unavailable', JSON.stringify(f));
      expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
      const back = await fetchManual(callbackUrl);
      expect(back.headers.get('location')).toContain(`orderId=${bought.body.orderId}&status=paid`);
    }
    // -55 (payment request not found) proves no payment: failed; the money the gateway later confirms still pays it.
    const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    await fault(stack, 'gateway', { code: -55, path: 'verify' });
    expect((await fetchManual(callbackUrl)).headers.get('location')).toContain('status=failed');
    expect((await fetchManual(callbackUrl)).headers.get('location')).toContain('status=paid');
  });

  it('gives up on a gateway that never answers within its timeout, leaving the order pending', async () => {
    const learner = await signIn(stack);
    const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    await fault(stack, 'gateway', { kind: 'hang', path: 'verify' });
    const res = await timedJson(callbackUrl);
    expect503(res, 'gateway_unavailable', 'hang');
    expect(res.ms).toBeGreaterThan(9_000);
    expect(res.ms).toBeLessThan(15_000);
    expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
  });

  it('still answers the subscription status when the re-check cannot list unverified payments', async () => {
    const learner = await signIn(stack);
    const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
    await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    for (const f of [{ code: -12 }, { status: 500 }, { kind: 'garbage' }]) {
      await fault(stack, 'gateway', { ...f, path: 'unVerified' });
      const res = await call(stack, 'GET', '/api/subscription/status', { token: learner.accessToken });
      expect(res.status, JSON.stringify(f)).toBe(200);
      expect(res.body.status).not.toBe('active');
    }
    const res = await call(stack, 'GET', '/api/subscription/status', { token: learner.accessToken });
    expect(res.body.status).toBe('active');
  });

  it('answers inquiry and reverse as ZarinPal does', async () => {
    const api = (name: string, body: Record<string, unknown>) =>
      call(stack, 'POST', `/_local/gateway/pg/v4/payment/${name}.json`, { body: { merchant_id: LOCAL_GATEWAY_MERCHANT_ID, ...body } });
    const learner = await signIn(stack);
    const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    const authority = startPay.split('/').at(-1) as string;
    expect((await api('inquiry', { authority })).body).toEqual({ data: { code: 100, message: 'Success', status: 'IN_BANK' }, errors: [] });
    expect((await api('reverse', { authority })).body.errors).toMatchObject({ code: -61 });
    const callbackUrl = await pressOnGateway(startPay, 'pay');
    expect((await api('inquiry', { authority })).body.data.status).toBe('PAID');
    await fetchManual(callbackUrl);
    expect((await api('inquiry', { authority })).body.data.status).toBe('VERIFIED');
    expect((await api('reverse', { authority })).body).toEqual({ data: { code: 100, message: 'Reversed' }, errors: [] });
    expect((await api('inquiry', { authority })).body.data.status).toBe('REVERSED');
    expect((await api('reverse', { authority })).body.errors).toMatchObject({ code: -61 });
    expect((await api('inquiry', { authority: `S${'0'.repeat(35)}` })).body.errors).toMatchObject({ code: -54 });
    expect((await api('inquiry', { authority, merchant_id: '00000000-0000-4000-8000-000000000000' })).body.errors).toMatchObject({
      code: -53,
    });
    await fault(stack, 'gateway', { code: -62, path: 'reverse' });
    const refused = await api('reverse', { authority });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ data: [], errors: { code: -62, message: expect.any(String), validations: [] } });
  });
});
