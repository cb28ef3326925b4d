/**
 * Sends a sign-in code through a Kavenegar-style `verify/lookup` API (providers.md §3):
 * `POST {SMS_BASE_URL}/v1/{API-KEY}/verify/lookup.json`, form fields `receptor`, `token`, `template`.
 * Success: HTTP 200 and `return.status` 200. Errors: HTTP status mirrors `return.status` (403 bad key,
 * 411 bad receptor, 418 credit, 424 template, 431 token with whitespace, 451 throttled).
 *
 * Errors: {@link DomainError} `sms_unavailable` when no key is configured or the provider refuses or is
 * unreachable (the API then answers 503; there is never a fake success).
 */
import { DomainError } from '../errors';
import type { SmsSender } from './ports';

export const smsErrors = {
  unavailable: (detail: string) => new DomainError('sms_unavailable', detail, { retryAfter: 60 }),
};

export function createKavenegarSender(options: { apiKey?: string; baseUrl: string; template: string; timeoutMs?: number }): SmsSender {
  return {
    configured: Boolean(options.apiKey),
    async sendVerifyCode(receptor, token) {
      if (!options.apiKey) throw smsErrors.unavailable('Sign-in codes cannot be sent: the sms provider is not configured');
      const url = `${options.baseUrl}/v1/${encodeURIComponent(options.apiKey)}/verify/lookup.json`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ receptor, token, template: options.template }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch {
        throw smsErrors.unavailable('The sms provider could not be reached');
      }
      const body = (await response.json().catch(() => null)) as { return?: { status?: number } } | null;
      const status = body?.return?.status ?? response.status;
      if (response.status !== 200 || status !== 200) {
        throw smsErrors.unavailable(`The sms provider refused the message (status ${status})`);
      }
    },
  };
}
