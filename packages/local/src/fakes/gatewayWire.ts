/**
 * The wire format of the fake payment gateway (`gateway.ts`; providers.md §1): ZarinPal v4's success and error
 * envelopes, its error codes, and the payment record the fake keeps.
 */
import type { ServerResponse } from 'node:http';

/** A payment the fake gateway holds, by authority. */
export interface FakePayment {
  authority: string;
  merchantId: string;
  /** As sent (rial when currency is IRR). */
  amount: number;
  currency: 'IRR' | 'IRT';
  description: string;
  callbackUrl: string;
  orderId?: string;
  state: 'new' | 'paid' | 'cancelled' | 'verified' | 'reversed';
  refId?: number;
  createdAt: Date;
  paidAt?: Date;
}

/** ZarinPal's error codes and messages (providers.md §1 error table). */
export const GATEWAY_ERRORS: Record<number, string> = {
  [-9]: 'The input params invalid, validation error.',
  [-10]: 'Terminal is not valid, please check merchant_id or ip address.',
  [-11]: 'Terminal is not active, please contact our support team.',
  [-12]: 'To many attempts, please try again later.',
  [-13]: 'Terminal limit reached.',
  [-14]: 'The callback URL domain does not match the registered terminal domain.',
  [-15]: 'Terminal user is suspend : (please contact our support team).',
  [-16]: 'Terminal user level is not valid : ( please contact our support team).',
  [-17]: 'Terminal user level is not valid : ( please contact our support team).',
  [-41]: 'Maximum amount is 100,000,000 tomans.',
  [-50]: 'Session is not valid, amounts values is not the same.',
  [-51]: 'Session is not valid, session is not active paid try.',
  [-52]: 'Oops!!, please contact our support team',
  [-53]: 'Session is not this merchant_id session.',
  [-54]: 'Invalid authority.',
  [-55]: 'Manual payment request not found.',
  [-60]: 'Session can not be reversed with bank.',
  [-61]: 'Session is not in success status.',
  [-62]: 'Terminal ip limit must be active.',
  [-63]: 'Maximum time for reverse this session is expired.',
};

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
export const ok = (res: ServerResponse, data: Record<string, unknown>) => json(res, 200, { data, errors: [] });
export const fail = (
  res: ServerResponse,
  code: number,
  message = GATEWAY_ERRORS[code] ?? 'Error',
  validations: Record<string, string>[] = [],
  status = 400,
) => json(res, status, { data: [], errors: { code, message, validations } });

/** `YYYY-MM-DD HH:MM:SS` (UTC). */
export const gatewayDate = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

export function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
