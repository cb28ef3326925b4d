/**
 * The in-memory twin of the sms provider (providers/ports.ts `SmsSender`), for unit tests: it keeps the contract of
 * the Kavenegar adapter, failures included: a refused code is `sms_unavailable`, a lookup message ends `sent`,
 * `refused` or `uncertain` as the test says.
 */
import { DomainError } from '../errors';
import type { LookupOutcome, LookupTokens, SmsSender } from '../providers/ports';

/** The fake sms provider: records every code "sent"; `refuseNext(status)` makes the next sends fail as Kavenegar's errors do. */
export class FakeSms implements SmsSender {
  readonly sent: Array<{ receptor: string; token: string }> = [];
  private refusals: number[] = [];
  constructor(readonly configured = true) {}

  /** The next `count` sends fail with Kavenegar status `status` (e.g. 418 no credit, 451 throttled). */
  refuseNext(status: number, count = 1): void {
    this.refusals.push(...Array<number>(count).fill(status));
  }

  async sendVerifyCode(receptor: string, token: string): Promise<void> {
    if (!this.configured) throw new DomainError('sms_unavailable', 'The sms provider is not configured', { retryAfter: 60 });
    const status = this.refusals.shift();
    if (status !== undefined)
      throw new DomainError('sms_unavailable', `The sms provider refused the message (status ${status})`, { retryAfter: 60 });
    this.sent.push({ receptor, token });
  }

  /** The last code sent to `receptor`. */
  lastCode(receptor: string): string | undefined {
    return this.sent.filter((s) => s.receptor === receptor).at(-1)?.token;
  }

  /** Lookup messages taken (`sendLookup`), oldest first. */
  readonly lookups: Array<{ receptor: string; template: string; tokens: LookupTokens }> = [];
  private lookupOutcomes: LookupOutcome[] = [];

  /** The next `count` lookups end as `outcome` (a refusal or an uncertain answer; `sent` records them as taken). */
  nextLookups(outcome: LookupOutcome, count = 1): void {
    this.lookupOutcomes.push(...Array<LookupOutcome>(count).fill(outcome));
  }

  async sendLookup(receptor: string, template: string, tokens: LookupTokens): Promise<LookupOutcome> {
    if (!this.configured) throw new DomainError('sms_unavailable', 'The sms provider is not configured', { retryAfter: 60 });
    const outcome = this.lookupOutcomes.shift() ?? { status: 'sent' };
    if (outcome.status === 'sent') this.lookups.push({ receptor, template, tokens });
    return outcome;
  }
}
