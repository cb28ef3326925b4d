/**
 * The web payment gateway: a ZarinPal REST API v4 client over `fetch` (providers.md §1), JSON in and out.
 *
 * - `request`: `POST {GATEWAY_BASE_URL}/pg/v4/payment/request.json` `{ merchant_id, amount, currency, description,
 *   callback_url, metadata: { order_id } }` → `data.authority` (36 chars, `A`/`S` + 35 alphanumerics).
 * - start page: `{GATEWAY_BASE_URL}/pg/StartPay/{authority}` (same host as the API, providers.md §1 "Hosts").
 * - `verify`: `POST …/verify.json` `{ merchant_id, amount, authority }`; `data.code` 100 = verified now, 101 =
 *   verified before: BOTH mean paid (providers.md §1 "verify"; treating 101 as failure is the classic bug).
 * - `unVerified`: `POST …/unVerified.json` `{ merchant_id }` → up to 100 paid-but-unverified authorities (its
 *   `code` may be the string "100").
 *
 * Units: our prices are TOMAN; the gateway is always sent RIAL (toman × 10) with `currency: 'IRR'` stated
 * explicitly (providers.md §1 "Amount units"), and verify sends the same rial amount computed from the order in
 * our database, never from the callback URL.
 *
 * Envelopes: success `{ data: { code: 100, … }, errors: [] }`; failure `{ data: [] | {}, errors: { code: -NN,
 * message, validations } }`, whatever the HTTP status, so the body is parsed first and the status second.
 *
 * Errors: {@link GatewayError} with `kind`
 * - `not_configured`: no merchant id (GATEWAY_MERCHANT_ID unset or empty: the payment path fails closed);
 * - `unreachable`: network error, timeout ({@link GATEWAY_TIMEOUT_MS} per call, shortened to what is left of the
 *   request's deadline, `../deadline.ts`; no retry: the caller answers 503 and the client may retry) or a body
 *   that is not the gateway's JSON;
 * - `refused`: the gateway answered an error code (e.g. -9 validation, -10 wrong merchant, -12 too many
 *   attempts, -14 callback domain not the terminal's registered domain).
 * Verify codes that prove the payment did not happen (-50 amount mismatch, -51 not paid, -53 other merchant,
 * -54 invalid authority, -55 not found) are not errors: they come back as `{ paid: false, code }`.
 */

import { callTimeout } from '../deadline';
import { GatewayError, type PaymentGateway } from './ports';

/** Rial per toman. */
export const RIAL_PER_TOMAN = 10;
export const GATEWAY_TIMEOUT_MS = 10_000;

/** Verify codes meaning "this authority was not paid (to us, for this amount)". */
export const NOT_PAID_CODES: ReadonlySet<number> = new Set([-50, -51, -53, -54, -55]);
/** The gateway's code for a callback URL whose domain is not the terminal's registered domain. */
const CALLBACK_DOMAIN_MISMATCH = -14;

interface Envelope {
  data: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** `data.code` or `errors.code` as a number (the docs show both numbers and strings). */
const codeOf = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

export function createZarinpalGateway(options: { merchantId?: string; baseUrl: string; timeoutMs?: number }): PaymentGateway {
  const api = `${options.baseUrl}/pg/v4/payment`;
  const merchantId = () => {
    if (!options.merchantId) throw new GatewayError('not_configured', undefined, 'The payment gateway is not configured');
    return options.merchantId;
  };

  async function post(path: string, body: Record<string, unknown>): Promise<Envelope> {
    let response: Response;
    try {
      response = await fetch(`${api}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(callTimeout(options.timeoutMs ?? GATEWAY_TIMEOUT_MS)),
      });
    } catch {
      throw new GatewayError('unreachable', undefined, 'The payment gateway could not be reached');
    }
    const json = (await response.json().catch(() => undefined)) as { data?: unknown; errors?: unknown } | undefined;
    if (!json || typeof json !== 'object') {
      throw new GatewayError('unreachable', undefined, `The payment gateway answered HTTP ${response.status} without its JSON body`);
    }
    const errors = json.errors;
    if (errors && !Array.isArray(errors) && typeof errors === 'object') {
      const e = errors as { code?: unknown; message?: unknown };
      return { data: {}, error: { code: codeOf(e.code) ?? -52, message: String(e.message ?? 'error') } };
    }
    const data = json.data && !Array.isArray(json.data) && typeof json.data === 'object' ? (json.data as Record<string, unknown>) : {};
    if (!response.ok && codeOf(data.code) === undefined) {
      throw new GatewayError('unreachable', undefined, `The payment gateway answered HTTP ${response.status}`);
    }
    return { data };
  }

  const refused = (error: { code: number; message: string }, what: string) =>
    new GatewayError(
      error.code === CALLBACK_DOMAIN_MISMATCH ? 'callback_refused' : 'refused',
      error.code,
      `The payment gateway refused the ${what} (code ${error.code}: ${error.message})`,
    );

  return {
    configured: Boolean(options.merchantId),

    async request({ amountToman, description, callbackUrl, orderId }) {
      const result = await post('request.json', {
        merchant_id: merchantId(),
        amount: amountToman * RIAL_PER_TOMAN,
        currency: 'IRR',
        description: description.slice(0, 500),
        callback_url: callbackUrl,
        metadata: { order_id: String(orderId) },
      });
      if (result.error) throw refused(result.error, 'payment request');
      const authority = result.data.authority;
      if (codeOf(result.data.code) !== 100 || typeof authority !== 'string' || !/^[AS][0-9A-Za-z]{35}$/.test(authority)) {
        throw new GatewayError('unreachable', undefined, 'The payment gateway answered a request without a valid authority');
      }
      return { authority };
    },

    async verify({ authority, amountToman }) {
      const result = await post('verify.json', { merchant_id: merchantId(), amount: amountToman * RIAL_PER_TOMAN, authority });
      if (result.error) {
        if (NOT_PAID_CODES.has(result.error.code)) return { paid: false, code: result.error.code, message: result.error.message };
        throw refused(result.error, 'verification');
      }
      const code = codeOf(result.data.code);
      if (code === 100 || code === 101) {
        const cardPan = typeof result.data.card_pan === 'string' ? result.data.card_pan : undefined;
        return { paid: true, code, refId: String(result.data.ref_id ?? ''), ...(cardPan ? { cardPan } : {}) };
      }
      if (code !== undefined && NOT_PAID_CODES.has(code)) return { paid: false, code, message: String(result.data.message ?? '') };
      throw new GatewayError('refused', code, `The payment gateway answered verification with code ${code}`);
    },

    async unverified() {
      const result = await post('unVerified.json', { merchant_id: merchantId() });
      if (result.error) throw refused(result.error, 'unVerified listing');
      const list = Array.isArray(result.data.authorities) ? (result.data.authorities as Array<Record<string, unknown>>) : [];
      return list
        .filter((a) => typeof a.authority === 'string')
        .map((a) => ({ authority: a.authority as string, amountRial: Number(a.amount) }));
    },

    startPayUrl: (authority) => `${options.baseUrl}/pg/StartPay/${encodeURIComponent(authority)}`,
  };
}
