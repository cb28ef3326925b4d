/**
 * In-memory twins of the provider ports (`providers/ports.ts`) for tests that call the domain directly. They
 * keep the contract of the real adapters, failures included: a refused sms is `sms_unavailable`, a gateway
 * answers verify codes 100 / 101 / -51 / -54 / -50 as ZarinPal does (providers.md §1), the model streams
 * text deltas then usage (providers.md §5). The wire-level fakes of the local runtime live in
 * `packages/local/src/fakes/`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors';
import {
  type ChatMessage,
  GatewayError,
  type ModelChunk,
  type ModelClient,
  type PaymentGateway,
  type SmsSender,
  type VerifyOutcome,
} from '../providers/ports';

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
}

interface FakePayment {
  amountToman: number;
  state: 'pending' | 'paid' | 'verified' | 'cancelled';
  refId: string;
}

/**
 * The fake web gateway. `request` opens a payment; the test plays the payer with `pay(authority)` or
 * `cancel(authority)`; `verify` answers 100 the first time a paid authority is verified for its amount, 101
 * after, -51 unpaid, -54 unknown, -50 wrong amount; `failNext(kind)` makes the next call fail.
 */
export class FakeGateway implements PaymentGateway {
  readonly payments = new Map<string, FakePayment>();
  private failures: Array<GatewayError> = [];
  constructor(readonly configured = true) {}

  /** The next call fails: `unreachable` (timeout, 5xx) or `refused` with a ZarinPal code (e.g. -12 too many attempts). */
  failNext(kind: 'unreachable' | 'refused', code?: number): void {
    this.failures.push(new GatewayError(kind, code, `fake gateway: ${kind}${code === undefined ? '' : ` ${code}`}`));
  }

  private call(): void {
    if (!this.configured) throw new GatewayError('not_configured', undefined, 'The payment gateway is not configured');
    const failure = this.failures.shift();
    if (failure) throw failure;
  }

  pay(authority: string): void {
    const payment = this.payments.get(authority);
    if (payment?.state === 'pending') payment.state = 'paid';
  }

  cancel(authority: string): void {
    const payment = this.payments.get(authority);
    if (payment?.state === 'pending') payment.state = 'cancelled';
  }

  async request(input: { amountToman: number }): Promise<{ authority: string }> {
    this.call();
    const authority = `S${randomBytes(24).toString('base64url').replace(/[-_]/g, '0').slice(0, 35)}`;
    this.payments.set(authority, { amountToman: input.amountToman, state: 'pending', refId: String(10_000_000 + this.payments.size) });
    return { authority };
  }

  async verify(input: { authority: string; amountToman: number }): Promise<VerifyOutcome> {
    this.call();
    const payment = this.payments.get(input.authority);
    if (!payment) return { paid: false, code: -54, message: 'invalid authority' };
    if (payment.state === 'pending' || payment.state === 'cancelled') return { paid: false, code: -51, message: 'session not paid' };
    if (payment.amountToman !== input.amountToman) return { paid: false, code: -50, message: 'amount mismatch' };
    const code = payment.state === 'verified' ? 101 : 100;
    payment.state = 'verified';
    return { paid: true, code, refId: payment.refId, cardPan: '502229******5995' };
  }

  async unverified(): Promise<Array<{ authority: string; amountRial: number }>> {
    this.call();
    return [...this.payments.entries()]
      .filter(([, p]) => p.state === 'paid')
      .map(([authority, p]) => ({ authority, amountRial: p.amountToman * 10 }));
  }

  startPayUrl(authority: string): string {
    return `https://gateway.invalid/pg/StartPay/${encodeURIComponent(authority)}`;
  }
}

/** Dimensions of `text-embedding-3-small`, the default embedding model (providers.md §5). */
export const FAKE_EMBEDDING_DIMENSIONS = 1536;

/**
 * The fake model: answers every chat with `answer(messages)` (default: a fixed short answer), streamed in
 * 8-character deltas and then the usage; embeds deterministically (same text, same unit vector). `failNext()`
 * makes the next call throw as the SDK does on a 5xx.
 */
export class FakeModel implements ModelClient {
  readonly chatModel = 'fake-chat';
  readonly embeddingModel = 'fake-embedding';
  readonly requests: ChatMessage[][] = [];
  private failures = 0;
  constructor(private readonly answer: (messages: ChatMessage[]) => string = () => 'Count the tens first, then the ones.') {}

  failNext(count = 1): void {
    this.failures += count;
  }

  private call(): void {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('500 fake model: server error');
    }
  }

  async *streamChat(messages: ChatMessage[], options: { signal: AbortSignal }): AsyncIterable<ModelChunk> {
    this.call();
    this.requests.push(messages);
    const text = this.answer(messages);
    for (let i = 0; i < text.length; i += 8) {
      if (options.signal.aborted) return;
      yield { text: text.slice(i, i + 8) };
    }
    yield {
      usage: {
        promptTokens: messages.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0),
        completionTokens: Math.ceil(text.length / 4),
      },
    };
  }

  async embed(texts: string[]): Promise<number[][]> {
    this.call();
    return texts.map((text) => {
      const seed = createHash('sha256').update(text).digest();
      const vector = Array.from({ length: FAKE_EMBEDDING_DIMENSIONS }, (_, i) => ((seed[i % seed.length] ?? 0) - 127.5) / 127.5);
      const norm = Math.hypot(...vector) || 1;
      return vector.map((v) => v / norm);
    });
  }
}
