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
 *   most 100; `date` as `YYYY-MM-DD HH:MM:SS`).
 * - Errors: `{ data: [], errors: { code, message, validations } }` with HTTP 400 (-9 validation, -10 unknown
 *   merchant, -14 callback domain mismatch, -41 amount too large).
 *
 * Test hook for -14: `POST /_local/gateway/terminal` `{ "registeredDomain": "pay.example" }` registers a domain
 * for the terminal; from then on a `callback_url` on another host (or a subdomain of another) is refused with
 * -14. `{ "registeredDomain": null }` (the default) accepts any callback host. `GET /_local/gateway/terminal`
 * shows the setting.
 */
import { createHash, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from './html';

export interface FakePayment {
  authority: string;
  merchantId: string;
  /** As sent (rial when currency is IRR). */
  amount: number;
  currency: 'IRR' | 'IRT';
  description: string;
  callbackUrl: string;
  orderId?: string;
  state: 'new' | 'paid' | 'cancelled' | 'verified';
  refId?: number;
  createdAt: Date;
  paidAt?: Date;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newAuthority = () => `S${Array.from({ length: 35 }, () => ALNUM[randomInt(ALNUM.length)]).join('')}`;
const CARD_PAN = '502229******5995';
const MAX_AMOUNT_RIAL = 1_000_000_000;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const ok = (res: ServerResponse, data: Record<string, unknown>) => json(res, 200, { data, errors: [] });
const fail = (res: ServerResponse, code: number, message: string, validations: Record<string, string>[] = []) =>
  json(res, 400, { data: [], errors: { code, message, validations } });

/** `YYYY-MM-DD HH:MM:SS` (UTC). */
const gatewayDate = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `host` is `domain` or a subdomain of it. */
const onDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

export function createGatewayFake(options: { merchantId: string }) {
  const payments = new Map<string, FakePayment>();
  const terminal: { registeredDomain: string | null } = { registeredDomain: null };
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
    if (validations.length) return fail(res, -9, 'The input params invalid, validation error.', validations);
    if (merchantId !== options.merchantId) return fail(res, -10, 'Terminal is not valid, please check merchant_id or ip address.');
    if ((amount as number) * (currency === 'IRT' ? 10 : 1) > MAX_AMOUNT_RIAL)
      return fail(res, -41, 'Maximum amount is 100,000,000 tomans.');
    if (terminal.registeredDomain && !onDomain(callbackHost as string, terminal.registeredDomain)) {
      return fail(res, -14, 'The callback URL domain does not match the registered terminal domain.');
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
      return fail(res, -9, 'The input params invalid, validation error.');
    }
    const payment = payments.get(authority);
    if (merchantId !== options.merchantId) {
      return payment
        ? fail(res, -53, 'Session is not this merchant_id session.')
        : fail(res, -10, 'Terminal is not valid, please check merchant_id or ip address.');
    }
    if (!payment) return fail(res, -54, 'Invalid authority.');
    if (amount !== payment.amount) return fail(res, -50, 'Session is not valid, amounts values is not the same.');
    if (payment.state === 'new' || payment.state === 'cancelled')
      return fail(res, -51, 'Session is not valid, session is not active paid try.');
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
    if (typeof body.merchant_id !== 'string') return fail(res, -9, 'The input params invalid, validation error.');
    if (body.merchant_id !== options.merchantId) return fail(res, -10, 'Terminal is not valid, please check merchant_id or ip address.');
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

  const backToMerchant = (payment: FakePayment) => {
    const url = new URL(payment.callbackUrl);
    url.searchParams.set('Authority', payment.authority);
    url.searchParams.set('Status', payment.state === 'paid' || payment.state === 'verified' ? 'OK' : 'NOK');
    return url.toString();
  };

  function startPayPage(res: ServerResponse, payment: FakePayment) {
    const finished = payment.state !== 'new';
    const toman = payment.currency === 'IRR' ? payment.amount / 10 : payment.amount;
    const html = `<!doctype html>
<html lang="fa" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>درگاه پرداخت آزمایشی</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}.box{border:1px solid #ccc;border-radius:.5rem;padding:1rem}
button{font-size:1.1rem;padding:.6rem 1.4rem;margin:.3rem;border-radius:.4rem;border:0;cursor:pointer}#pay{background:#1a7f37;color:#fff}#cancel{background:#ddd}</style>
</head><body>
<h1>درگاه پرداخت آزمایشی (local fake)</h1>
<div class="box">
<p>${escapeHtml(payment.description)}</p>
<p>مبلغ: <strong id="amount">${payment.amount.toLocaleString('en-US')}</strong> ${payment.currency === 'IRR' ? 'ریال' : 'تومان'} (${toman.toLocaleString('en-US')} تومان)</p>
<p>کد پیگیری: <code id="authority">${escapeHtml(payment.authority)}</code></p>
${finished ? `<p id="finished">این پرداخت پایان یافته است (${payment.state}).</p>` : ''}
<form method="post" action="/_local/gateway/pg/StartPay/${encodeURIComponent(payment.authority)}">
${
  finished
    ? '<button id="back" name="action" value="back">بازگشت به سایت پذیرنده</button>'
    : '<button id="pay" name="action" value="pay">پرداخت</button><button id="cancel" name="action" value="cancel">انصراف</button>'
}
</form></div></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  }

  function notFoundPage(res: ServerResponse) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><meta charset="utf-8"><title>404</title><p>Invalid authority.</p>');
  }

  return {
    payments,
    terminal,
    /** Handles a request under `/_local/gateway`; `path` is the rest of the path. Returns false when not its route. */
    handle(req: IncomingMessage, res: ServerResponse, path: string, _url: URL, body: Buffer): boolean {
      const api = /^\/pg\/v4\/payment\/(request|verify|unVerified)\.json$/.exec(path);
      if (api) {
        if (req.method !== 'POST') {
          fail(res, -9, 'Method not allowed; use POST.');
          return true;
        }
        const parsed = parseJson(body);
        if (!parsed) {
          fail(res, -9, 'The input params invalid, validation error.');
          return true;
        }
        if (api[1] === 'request') request(res, parsed);
        else if (api[1] === 'verify') verify(res, parsed);
        else unverified(res, parsed);
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
