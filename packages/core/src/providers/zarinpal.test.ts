/**
 * The ZarinPal v4 client's wire handling (providers.md §1) against canned gateway answers: rial amounts,
 * both envelope shapes, 100 and 101 as paid, not-paid codes, refusals, and an unreachable gateway. No network:
 * `fetch` is replaced for each test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from './ports';
import { createZarinpalGateway } from './zarinpal';

const MERCHANT = '00000000-0000-4000-8000-000000000001';
const AUTHORITY = `A${'0'.repeat(35)}`;

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const gateway = (merchantId: string | undefined = MERCHANT) => createZarinpalGateway({ merchantId, baseUrl: 'https://pay.test' });
const unconfigured = () => createZarinpalGateway({ baseUrl: 'https://pay.test' });
const sent = (fetch: ReturnType<typeof answer>) => JSON.parse(String(fetch.mock.calls[0]![1].body));

afterEach(() => vi.unstubAllGlobals());

describe('request', () => {
  it('sends the amount in rial with currency IRR and returns the authority', async () => {
    const fetch = answer(200, {
      data: { code: 100, message: 'Success', authority: AUTHORITY, fee_type: 'Merchant', fee: 100 },
      errors: [],
    });
    const result = await gateway().request({ amountToman: 379_000, description: 'plan', callbackUrl: 'https://api.test/cb', orderId: 7 });
    expect(result).toEqual({ authority: AUTHORITY });
    expect(fetch.mock.calls[0]![0]).toBe('https://pay.test/pg/v4/payment/request.json');
    expect(sent(fetch)).toEqual({
      merchant_id: MERCHANT,
      amount: 3_790_000,
      currency: 'IRR',
      description: 'plan',
      callback_url: 'https://api.test/cb',
      metadata: { order_id: '7' },
    });
  });

  it('reports -14 as callback_refused and any other error object as refused, with the code, whatever the HTTP status', async () => {
    answer(400, { data: [], errors: { code: -14, message: 'domain', validations: [] } });
    const error = await gateway()
      .request({ amountToman: 1000, description: 'd', callbackUrl: 'https://x/cb', orderId: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ kind: 'callback_refused', code: -14 });
    answer(200, { data: {}, errors: { code: '-12', message: 'too many' } });
    await expect(gateway().request({ amountToman: 1000, description: 'd', callbackUrl: 'https://x/cb', orderId: 1 })).rejects.toMatchObject(
      {
        kind: 'refused',
        code: -12,
      },
    );
  });

  it('fails closed without a merchant id, before any request', async () => {
    const fetch = answer(200, {});
    await expect(
      unconfigured().request({ amountToman: 1000, description: 'd', callbackUrl: 'https://x/cb', orderId: 1 }),
    ).rejects.toMatchObject({ kind: 'not_configured' });
    expect(fetch).not.toHaveBeenCalled();
    expect(unconfigured().configured).toBe(false);
  });

  it('calls a body that is not the gateway JSON, or a malformed authority, unreachable', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502 })),
    );
    await expect(gateway().request({ amountToman: 1000, description: 'd', callbackUrl: 'https://x/cb', orderId: 1 })).rejects.toMatchObject(
      {
        kind: 'unreachable',
      },
    );
    answer(200, { data: { code: 100, authority: 'short' }, errors: [] });
    await expect(gateway().request({ amountToman: 1000, description: 'd', callbackUrl: 'https://x/cb', orderId: 1 })).rejects.toMatchObject(
      {
        kind: 'unreachable',
      },
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('fetch failed');
      }),
    );
    await expect(gateway().unverified()).rejects.toMatchObject({ kind: 'unreachable' });
  });
});

describe('verify', () => {
  it('treats 100 and 101 as paid, with the same rial amount as the request', async () => {
    for (const code of [100, 101] as const) {
      const fetch = answer(200, { data: { code, message: 'Paid', ref_id: 59421827101, card_pan: '502229******5995' }, errors: [] });
      expect(await gateway().verify({ authority: AUTHORITY, amountToman: 149_000 })).toEqual({
        paid: true,
        code,
        refId: '59421827101',
        cardPan: '502229******5995',
      });
      expect(sent(fetch)).toEqual({ merchant_id: MERCHANT, amount: 1_490_000, authority: AUTHORITY });
    }
  });

  it('answers not paid for -50, -51, -53, -54, -55 and refuses the rest', async () => {
    for (const code of [-50, -51, -53, -54, -55]) {
      answer(400, { data: [], errors: { code, message: 'no' } });
      expect(await gateway().verify({ authority: AUTHORITY, amountToman: 1000 })).toEqual({ paid: false, code, message: 'no' });
    }
    answer(400, { data: [], errors: { code: -10, message: 'terminal' } });
    await expect(gateway().verify({ authority: AUTHORITY, amountToman: 1000 })).rejects.toMatchObject({ kind: 'refused', code: -10 });
  });
});

describe('unVerified', () => {
  it('reads the authorities, accepting the code as a string', async () => {
    answer(200, {
      data: {
        code: '100',
        message: 'Success',
        authorities: [{ authority: AUTHORITY, amount: 10000, callback_url: 'x', referer: '', date: '2026-01-01 10:00:00' }],
      },
      errors: [],
    });
    expect(await gateway().unverified()).toEqual([{ authority: AUTHORITY, amountRial: 10000 }]);
  });

  it('builds the start page on the same host', () => {
    expect(gateway().startPayUrl(AUTHORITY)).toBe(`https://pay.test/pg/StartPay/${AUTHORITY}`);
  });
});
