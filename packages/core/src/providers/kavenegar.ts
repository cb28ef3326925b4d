/**
 * Sends texts through a Kavenegar-style `verify/lookup` API (providers.md §3):
 * `POST {SMS_BASE_URL}/v1/{API-KEY}/verify/lookup.json`, form fields `receptor`, `template`, `token` (and `token2`,
 * `token3`, `token10`, `token20` for templates with more figures: the parent's weekly report, DESIGN §13).
 * Success: HTTP 200 and `return.status` 200. Errors: HTTP status mirrors `return.status`; a body that is not the
 * provider's JSON (a proxy's HTML page) counts by its HTTP status.
 *
 * What each failure becomes (the API never fakes a success):
 * - 411 (the receptor is not a number the provider can reach) → 400 `validation_error` on `phone`: the phone the
 *   learner typed is the problem, asking again will not help;
 * - 409 (provider busy), 429 (IP restricted), 451 (too many calls), 5xx (but 501), a timeout
 *   ({@link SMS_TIMEOUT_MS}, shortened to the request's deadline), an unreachable provider or a garbage body →
 *   503 `sms_unavailable` with Retry-After {@link SMS_RETRY_AFTER_SECONDS};
 * - every other refusal (401 account disabled, 403 bad key, 418 credit, 424 template, 432 template without
 *   %token, 501 test account, ...) is our configuration's fault → 503 `sms_unavailable` with Retry-After
 *   {@link SMS_MISCONFIGURED_RETRY_AFTER_SECONDS}; the status is logged for the operator, not shown.
 * No retry: a second send could deliver two codes.
 *
 * `sendLookup` (the weekly parent report) reports instead of throwing: `sent`; `refused` (an error status, or a
 * provider that could not be reached: nothing sent) with its kind; `uncertain` when the request may have reached the
 * provider without a readable answer (a timeout, a cut connection, a 200 that is not its JSON), which the caller
 * must not send again if it promises one message.
 */
import { callTimeout } from '../deadline';
import { DomainError } from '../errors';
import { logger } from '../log';
import type { SmsSender } from './ports';

/** How long the provider may take to answer, ms. */
export const SMS_TIMEOUT_MS = 5_000;
/** Retry-After of a transient sms failure (busy, throttled, down), seconds. */
export const SMS_RETRY_AFTER_SECONDS = 60;
/** Retry-After when the provider refuses our account or template: someone has to fix the settings, seconds. */
export const SMS_MISCONFIGURED_RETRY_AFTER_SECONDS = 300;
/** Statuses that pass with time: busy, IP throttled, too many calls. */
const TRANSIENT = new Set([409, 429, 451]);
const RECEPTOR_INVALID = 411;
/** Kavenegar's 501: a test account may only text its owner's number (a configuration matter, not an outage). */
const TEST_ACCOUNT_ONLY = 501;

export const smsErrors = {
  unavailable: (detail: string, retryAfter = SMS_RETRY_AFTER_SECONDS) => new DomainError('sms_unavailable', detail, { retryAfter }),
  receptorRefused: () =>
    new DomainError('validation_error', 'The sms provider cannot send a text to this phone number', {
      fields: { phone: ['Not a mobile number the sms provider can reach'] },
    }),
};

/** Network failures that happen before a request reaches the provider: nothing can have been sent. */
const NOT_SENT_CAUSES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** What the wire said: the provider took it, answered an error status, or gave no usable answer. */
type WireAnswer =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; enveloped: boolean }
  | { kind: 'no_answer'; sendable: boolean; reason: string };

/** The provider's status as a lookup outcome's refusal kind. */
function refusalKind(status: number): 'transient' | 'configuration' | 'receptor' {
  if (status === RECEPTOR_INVALID) return 'receptor';
  if (TRANSIENT.has(status) || (status >= 500 && status !== TEST_ACCOUNT_ONLY)) return 'transient';
  return 'configuration';
}

export function createKavenegarSender(options: { apiKey?: string; baseUrl: string; template: string; timeoutMs?: number }): SmsSender {
  /** One verify/lookup call with `params` (receptor, template, tokens). */
  async function lookup(apiKey: string, params: Record<string, string>): Promise<WireAnswer> {
    const url = `${options.baseUrl}/v1/${encodeURIComponent(apiKey)}/verify/lookup.json`;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(params),
        signal: AbortSignal.timeout(callTimeout(options.timeoutMs ?? SMS_TIMEOUT_MS)),
      });
      const body = (await response.json().catch(() => null)) as { return?: { status?: unknown } } | null;
      const returned = body?.return?.status;
      if (response.status === 200 && returned === 200) return { kind: 'ok' };
      // Not the provider's envelope (a proxy's page, garbage): judged by the HTTP status, a 200 as a bad gateway.
      if (typeof returned === 'number') return { kind: 'status', status: returned, enveloped: true };
      return { kind: 'status', status: response.status === 200 ? 502 : response.status, enveloped: response.status !== 200 };
    } catch (error) {
      const code = ((error as { cause?: { code?: string } }).cause?.code ?? '') as string;
      return { kind: 'no_answer', sendable: NOT_SENT_CAUSES.has(code), reason: code || (error as Error).name };
    }
  }

  const requireKey = (): string => {
    if (!options.apiKey) throw smsErrors.unavailable('Sign-in codes cannot be sent: the sms provider is not configured');
    return options.apiKey;
  };

  return {
    configured: Boolean(options.apiKey),
    async sendVerifyCode(receptor, token) {
      const answer = await lookup(requireKey(), { receptor, token, template: options.template });
      if (answer.kind === 'ok') return;
      if (answer.kind === 'no_answer') throw smsErrors.unavailable('The sms provider could not be reached; try again in a minute');
      logger.warn('sms provider refused a message', { providerStatus: answer.status });
      const kind = refusalKind(answer.status);
      if (kind === 'receptor') throw smsErrors.receptorRefused();
      if (kind === 'transient') throw smsErrors.unavailable('The sms provider is busy; try again in a minute');
      throw smsErrors.unavailable(
        'Sign-in codes cannot be sent right now: the sms provider refused the message',
        SMS_MISCONFIGURED_RETRY_AFTER_SECONDS,
      );
    },
    async sendLookup(receptor, template, tokens) {
      const answer = await lookup(requireKey(), { receptor, template, ...tokens });
      if (answer.kind === 'ok') return { status: 'sent' };
      if (answer.kind === 'no_answer') {
        return answer.sendable
          ? { status: 'refused', providerStatus: 0, kind: 'transient' }
          : { status: 'uncertain', reason: answer.reason };
      }
      logger.warn('sms provider refused a message', { providerStatus: answer.status, template });
      // A 200 whose body is not the provider's answer: it may well have sent the message.
      if (!answer.enveloped) return { status: 'uncertain', reason: `unreadable answer (HTTP ${answer.status})` };
      return { status: 'refused', providerStatus: answer.status, kind: refusalKind(answer.status) };
    },
  };
}
