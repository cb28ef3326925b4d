/**
 * Local fake of the ZarinPal v4 web payment gateway (providers.md §1 and its "Summary for building local fake
 * servers"; DESIGN §6), mounted at `/_local/gateway`, speaking the same wire protocol as the real one:
 *
 * - `POST /pg/v4/payment/request.json` `{ merchant_id, amount, currency?, description, callback_url, metadata? }`
 *   → `{ data: { code: 100, message: 'Success', authority, fee_type, fee }, errors: [] }`. The authority is `S` +
 *   35 alphanumerics (sandbox style). Amounts are stored as sent, never converted (strict equality at verify).
 * - `GET /pg/StartPay/{authority}`: an HTML page with Pay and Cancel buttons; they POST the form field
 *   `action=pay|cancel` to the same path, answered 302 to `callback_url?Authority=<authority>&Status=OK|NOK`,
 *   as the real gateway sends the browser back. A finished payment's page sends it back with its outcome again.
 * - `POST /pg/v4/payment/verify.json` `{ merchant_id, amount, authority }`: 100 with ref_id, card_pan, card_hash,
 *   fee_type, fee on the first verify of a paid authority, 101 (same ref_id) after; -51 unpaid or cancelled,
 *   -50 amount differs, -54 unknown authority, -53 authority of another merchant.
 * - `POST /pg/v4/payment/unVerified.json` `{ merchant_id }`: paid, not yet verified payments (newest first, at
 *   most 100; `date` as `YYYY-MM-DD HH:MM:SS`; `code` as the string "100", as the docs show it).
 * - `POST /pg/v4/payment/inquiry.json` `{ merchant_id, authority }` → `data.status` `IN_BANK` (not paid yet),
 *   `PAID` (paid, not verified), `VERIFIED`, `FAILED` (cancelled) or `REVERSED`; -54 unknown, -53 other merchant.
 * - `POST /pg/v4/payment/reverse.json` `{ merchant_id, authority }`: a verified payment within 30 minutes of its
 *   payment → 100 `Reversed`; -61 not successful or already reversed, -63 the 30-minute window passed.
 * - Errors: `{ data: [], errors: { code, message, validations } }` with HTTP 400 (-9 validation, -10 unknown
 *   merchant, -14 callback domain mismatch, -41 amount too large), messages of `gatewayWire.ts` GATEWAY_ERRORS.
 *
 * Test hooks:
 * - `POST /_local/gateway/faults` (`faults.ts`): the next calls (all, or those whose path contains `path`:
 *   `request`, `verify`, `unVerified`, `inquiry`, `reverse`) answer a gateway `code` (-9, -10, -11, -12, -15, -52,
 *   -55, ...; HTTP `status`, default 400) in the error envelope (`gatewayWire.ts`), an HTTP 5xx page, a hang, a reset or garbage.
 * - `POST /_local/gateway/terminal` `{ "registeredDomain": "pay.example" }` registers a domain for the terminal;
 *   from then on a `callback_url` on another host (or a subdomain of another) is refused with -14.
 *   `{ "registeredDomain": null }` (the default) accepts any callback host. `GET` shows the setting.
 * - `GET /_local/gateway/` an HTML index of the payments; `GET /_local/gateway/payments` the same as JSON.
 */
import { createHash, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyFault, createFaults, proxyErrorPage } from './faults';
import { indexPage, notFoundPage, startPayPage } from './gatewayPages';
import { type FakePayment, fail, gatewayDate, json, ok, parseJson } from './gatewayWire';

export type { FakePayment } from './gatewayWire';

/** How long after payment a reverse is allowed (providers.md §1 "reverse"). */
const REVERSE_WINDOW_MS = 30 * 60_000;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newAuthority = () => `S${Array.from({ length: 35 }, () => ALNUM[randomInt(ALNUM.length)]).join('')}`;
const CARD_PAN = '502229******5995';
const MAX_AMOUNT_RIAL = 1_000_000_000;

/** Whether `host` is `domain` or a subdomain of it. */
const onDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

export function createGatewayFake(options: { merchantId: string }) {
  const payments = new Map<string, FakePayment>();
  const terminal: { registeredDomain: string | null } = { registeredDomain: null };
  const faults = createFaults();
  let nextRefId = 59_421_827_101; // larger than 32 bits, as real ref_ids are

  function request(res: ServerResponse, body: Record<string, unknown>) {
    const merchantId = body.merchant_id;
    const amount = body.amount;
    const currency = body.currency ?? 'IRR';
    const description = body.description;
    const callbackUrl = body.callback_url;
    const validations: Record<string, string>[] = [];
    if (typeof merchantId !== 'string' || !merchantId) validations.push({ merchant_id: 'The merchant id field is required.' });
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1000)
      validations.push({ amount: 'The amount must be at least 1000.' });
    if (currency !== 'IRR' && currency !== 'IRT') validations.push({ currency: 'The selected currency is invalid.' });
    if (typeof description !== 'string' || !description || description.length > 500) {
      validations.push({ description: 'The description field is required and at most 500 characters.' });
    }
    let callbackHost: string | undefined;
    try {
      const parsed = new URL(String(callbackUrl));
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') callbackHost = parsed.hostname;
    } catch {
      // invalid
    }
    if (!callbackHost) validations.push({ callback_url: 'The callback url format is invalid.' });
    if (validations.length) return fail(res, -9, undefined, validations);
    if (merchantId !== options.merchantId) return fail(res, -10);
    if ((amount as number) * (currency === 'IRT' ? 10 : 1) > MAX_AMOUNT_RIAL) return fail(res, -41);
    if (terminal.registeredDomain && !onDomain(callbackHost as string, terminal.registeredDomain)) {
      return fail(res, -14);
    }
    const authority = newAuthority();
    const metadata = (body.metadata ?? {}) as { order_id?: unknown };
    payments.set(authority, {
      authority,
      merchantId: merchantId as string,
      amount: amount as number,
      currency: currency as 'IRR' | 'IRT',
      description: description as string,
      callbackUrl: String(callbackUrl),
      ...(metadata.order_id !== undefined ? { orderId: String(metadata.order_id) } : {}),
      state: 'new',
      createdAt: new Date(),
    });
    return ok(res, { code: 100, message: 'Success', authority, fee_type: 'Merchant', fee: 0 });
  }

  function verify(res: ServerResponse, body: Record<string, unknown>) {
    const { merchant_id: merchantId, amount, authority } = body;
    if (typeof merchantId !== 'string' || typeof authority !== 'string' || typeof amount !== 'number') {
      return fail(res, -9);
    }
    const payment = payments.get(authority);
    if (merchantId !== options.merchantId) {
      return payment ? fail(res, -53) : fail(res, -10);
    }
    if (!payment) return fail(res, -54);
    if (amount !== payment.amount) return fail(res, -50);
    if (payment.state === 'new' || payment.state === 'cancelled') return fail(res, -51);
    const first = payment.state === 'paid';
    payment.state = 'verified';
    payment.refId ??= nextRefId++;
    return ok(res, {
      code: first ? 100 : 101,
      message: first ? 'Paid' : 'Verified',
      card_hash: createHash('sha256').update(CARD_PAN).digest('hex').toUpperCase(),
      card_pan: CARD_PAN,
      ref_id: payment.refId,
      fee_type: 'Merchant',
      fee: 0,
    });
  }

  function unverified(res: ServerResponse, body: Record<string, unknown>) {
    if (typeof body.merchant_id !== 'string') return fail(res, -9);
    if (body.merchant_id !== options.merchantId) return fail(res, -10);
    const authorities = [...payments.values()]
      .filter((p) => p.state === 'paid')
      .reverse()
      .slice(0, 100)
      .map((p) => ({
        authority: p.authority,
        amount: p.amount,
        callback_url: p.callbackUrl,
        referer: '',
        date: gatewayDate(p.paidAt ?? p.createdAt),
      }));
    // The docs show this code as a string.
    return ok(res, { code: '100', message: 'Success', authorities });
  }

  /** The payment of `body.authority` for this merchant, or the error already answered. */
  function ownPayment(res: ServerResponse, body: Record<string, unknown>): FakePayment | undefined {
    const { merchant_id: merchantId, authority } = body;
    if (typeof merchantId !== 'string' || typeof authority !== 'string') return void fail(res, -9);
    const payment = payments.get(authority);
    if (merchantId !== options.merchantId) return void fail(res, payment ? -53 : -10);
    if (!payment) return void fail(res, -54);
    return payment;
  }

  const INQUIRY_STATUS = { new: 'IN_BANK', paid: 'PAID', cancelled: 'FAILED', verified: 'VERIFIED', reversed: 'REVERSED' } as const;

  function inquiry(res: ServerResponse, body: Record<string, unknown>) {
    const payment = ownPayment(res, body);
    if (payment) ok(res, { code: 100, message: 'Success', status: INQUIRY_STATUS[payment.state] });
  }

  function reverse(res: ServerResponse, body: Record<string, unknown>) {
    const payment = ownPayment(res, body);
    if (!payment) return;
    if (payment.state !== 'verified') return fail(res, -61);
    if (Date.now() - (payment.paidAt ?? payment.createdAt).getTime() > REVERSE_WINDOW_MS) return fail(res, -63);
    payment.state = 'reversed';
    ok(res, { code: 100, message: 'Reversed' });
  }

  /** A queued fault's answer in the gateway's error envelope, or a proxy's 5xx page for a bare 5xx. */
  function faultAnswer(res: ServerResponse, fault: { status?: number; code?: string | number; message?: string }) {
    const code = Number(fault.code);
    if (fault.code === undefined || !Number.isFinite(code)) return proxyErrorPage(res, fault.status ?? 500);
    fail(res, code, fault.message, [], fault.status ?? 400);
  }

  const backToMerchant = (payment: FakePayment) => {
    const url = new URL(payment.callbackUrl);
    url.searchParams.set('Authority', payment.authority);
    url.searchParams.set('Status', payment.state === 'paid' || payment.state === 'verified' ? 'OK' : 'NOK');
    return url.toString();
  };

  return {
    payments,
    terminal,
    faults: faults.queue,
    /** How many calls its faults answered. */
    faultCounts: faults.counts,
    /** Handles a request under `/_local/gateway`; `path` is the rest of the path. Returns false when not its route. */
    async handle(req: IncomingMessage, res: ServerResponse, path: string, _url: URL, body: Buffer): Promise<boolean> {
      if (faults.handle(req, res, path, body)) return true;
      const api = /^\/pg\/v4\/payment\/(request|verify|unVerified|inquiry|reverse)\.json$/.exec(path);
      if (api) {
        if (req.method !== 'POST') {
          fail(res, -9, 'Method not allowed; use POST.');
          return true;
        }
        const fault = faults.take(path);
        if (fault && (await applyFault(fault, res))) return true;
        if (fault && fault.kind === 'error') {
          faultAnswer(res, fault);
          return true;
        }
        const parsed = parseJson(body);
        if (!parsed) {
          fail(res, -9);
          return true;
        }
        const endpoints = { request, verify, unVerified: unverified, inquiry, reverse } as const;
        endpoints[api[1] as keyof typeof endpoints](res, parsed);
        return true;
      }
      if ((path === '/' || path === '/payments') && req.method === 'GET') {
        if (path === '/') indexPage(res, [...payments.values()], terminal.registeredDomain);
        else json(res, 200, { items: [...payments.values()].reverse() });
        return true;
      }
      const start = /^\/pg\/StartPay\/([^/]+)$/.exec(path);
      if (start) {
        const payment = payments.get(decodeURIComponent(start[1] as string));
        if (!payment) {
          notFoundPage(res);
          return true;
        }
        if (req.method === 'GET') {
          startPayPage(res, payment);
          return true;
        }
        if (req.method !== 'POST') return false;
        const action = new URLSearchParams(body.toString('utf8')).get('action');
        if (payment.state === 'new' && action === 'pay') {
          payment.state = 'paid';
          payment.paidAt = new Date();
        } else if (payment.state === 'new' && action === 'cancel') {
          payment.state = 'cancelled';
        } else if (payment.state === 'new') {
          startPayPage(res, payment);
          return true;
        }
        res.writeHead(302, { location: backToMerchant(payment) });
        res.end();
        return true;
      }
      if (path === '/terminal') {
        if (req.method === 'POST') {
          const parsed = parseJson(body);
          const domain = parsed?.registeredDomain;
          if (!parsed || (domain !== null && typeof domain !== 'string')) {
            json(res, 400, { detail: 'send { "registeredDomain": "<host>" } or { "registeredDomain": null }' });
            return true;
          }
          terminal.registeredDomain = domain ? domain.toLowerCase() : null;
        } else if (req.method !== 'GET') return false;
        json(res, 200, terminal);
        return true;
      }
      return false;
    },
  };
}
