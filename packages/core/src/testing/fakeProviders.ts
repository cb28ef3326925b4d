/**
 * In-memory twins of the provider ports (`providers/ports.ts`) for tests that call the domain directly. They
 * keep the contract of the real adapters, failures included (the sms provider's: fakeSms.ts), a gateway
 * answers verify codes 100 / 101 / -51 / -54 / -50 as ZarinPal does (providers.md §1), the marketplace answers
 * 404 `not_found` for unknown or refunded purchases and 401 without a valid credential (providers.md §2), the model
 * streams text deltas then usage (providers.md §5). The wire-level fakes of the local runtime live in
 * `packages/local/src/fakes/`.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type ChatMessage,
  GatewayError,
  type InappPurchase,
  type Marketplace,
  type MarketplaceAuth,
  MarketplaceError,
  type MarketplaceTokens,
  type ModelChunk,
  type ModelClient,
  type PaymentGateway,
  type SubscriptionPurchase,
  type VerifyOutcome,
} from '../providers/ports';

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

  /**
   * The next call fails: `unreachable` (timeout, 5xx), `callback_refused` (-14) or `refused` with a ZarinPal code (e.g.
   * -12 too many attempts).
   */
  failNext(kind: 'unreachable' | 'callback_refused' | 'refused', code?: number): void {
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

/** A purchase the fake marketplace knows (epoch ms times). */
export interface FakeMarketplacePurchase {
  productId: string;
  kind: 'inapp' | 'subscription';
  developerPayload?: string;
  purchaseTime: number;
  refunded: boolean;
  validUntil: number;
  autoRenewing: boolean;
}

/**
 * The fake marketplace. Tests play the buyer with `mint(...)` (a purchase token), the marketplace's billing with
 * `renew(token, validUntil)` and a refund with `refund(token)` (then 404); `failNext(kind, status)` makes the next
 * API calls fail. It accepts the static secret `secret` and the access tokens it granted; OAuth codes come from
 * `approve()` (the owner's consent), refresh tokens from exchanging them. `calls` records each API call's auth kind.
 */
export class FakeMarketplace implements Marketplace {
  readonly purchases = new Map<string, FakeMarketplacePurchase>();
  readonly calls: Array<{ what: 'inapp' | 'subscription' | 'token'; auth?: MarketplaceAuth['kind'] }> = [];
  private readonly failures: MarketplaceError[] = [];
  private readonly codes = new Set<string>();
  private readonly refreshTokens = new Set<string>();
  private readonly accessTokens = new Set<string>();
  readonly packageName: string | undefined;
  readonly oauthClientConfigured: boolean;
  readonly secret: string;

  constructor(options: { packageName?: string | null; oauthClient?: boolean; secret?: string } = {}) {
    this.packageName = options.packageName === null ? undefined : (options.packageName ?? 'ir.mathisland.test');
    this.oauthClientConfigured = options.oauthClient ?? true;
    this.secret = options.secret ?? 'fake-marketplace-secret';
  }

  /** The next call fails: `not_found` (404), `unauthorized` (401/403), `unavailable` (5xx, timeout), `refused` (4xx). */
  failNext(kind: MarketplaceError['kind'], status?: number): void {
    this.failures.push(new MarketplaceError(kind, status, `fake marketplace: ${kind}`));
  }

  mint(purchase: Partial<FakeMarketplacePurchase> & Pick<FakeMarketplacePurchase, 'productId' | 'kind'>, now = Date.now()): string {
    const token = randomBytes(18).toString('base64url');
    this.purchases.set(token, { purchaseTime: now, refunded: false, validUntil: now + 30 * 86_400_000, autoRenewing: true, ...purchase });
    return token;
  }

  renew(token: string, validUntil: number): void {
    const purchase = this.purchases.get(token);
    if (purchase) purchase.validUntil = validUntil;
  }

  refund(token: string): void {
    const purchase = this.purchases.get(token);
    if (purchase) purchase.refunded = true;
  }

  /** The account owner approves the consent page: a one-time code. */
  approve(): string {
    const code = randomBytes(12).toString('hex');
    this.codes.add(code);
    return code;
  }

  /** Revokes every access token the fake granted (they answer 401 from now on). */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  private call(what: 'inapp' | 'subscription' | 'token', auth?: MarketplaceAuth): void {
    this.calls.push({ what, ...(auth ? { auth: auth.kind } : {}) });
    const failure = this.failures.shift();
    if (failure) throw failure;
    if (!auth) return;
    const ok = auth.kind === 'static_secret' ? auth.secret === this.secret : this.accessTokens.has(auth.accessToken);
    if (!ok) throw new MarketplaceError('unauthorized', 401, 'fake marketplace: credential refused');
  }

  private purchase(token: string, productId: string, kind: FakeMarketplacePurchase['kind']): FakeMarketplacePurchase {
    const purchase = this.purchases.get(token);
    if (!purchase || purchase.refunded || purchase.productId !== productId || purchase.kind !== kind) {
      throw new MarketplaceError('not_found', 404, 'fake marketplace: not_found');
    }
    return purchase;
  }

  async validateInapp(auth: MarketplaceAuth, productId: string, purchaseToken: string): Promise<InappPurchase> {
    this.call('inapp', auth);
    const p = this.purchase(purchaseToken, productId, 'inapp');
    return {
      purchaseState: 0,
      consumptionState: 1,
      purchaseTime: p.purchaseTime,
      ...(p.developerPayload ? { developerPayload: p.developerPayload } : {}),
    };
  }

  async subscriptionStatus(auth: MarketplaceAuth, subscriptionId: string, purchaseToken: string): Promise<SubscriptionPurchase> {
    this.call('subscription', auth);
    const p = this.purchase(purchaseToken, subscriptionId, 'subscription');
    return { initiationTime: p.purchaseTime, validUntil: p.validUntil, autoRenewing: p.autoRenewing };
  }

  authorizeUrl({ redirectUri, state }: { redirectUri: string; state: string }): string {
    return `https://marketplace.invalid/devapi/v2/auth/authorize/?${new URLSearchParams({ redirect_uri: redirectUri, state })}`;
  }

  private grant(refreshToken?: string): MarketplaceTokens {
    const accessToken = randomBytes(16).toString('hex');
    this.accessTokens.add(accessToken);
    return { accessToken, expiresIn: 3600, ...(refreshToken ? { refreshToken } : {}) };
  }

  async exchangeCode({ code }: { code: string; redirectUri: string }): Promise<MarketplaceTokens> {
    this.call('token');
    if (!this.codes.delete(code)) throw new MarketplaceError('refused', 400, 'fake marketplace: invalid_grant');
    const refreshToken = randomBytes(16).toString('hex');
    this.refreshTokens.add(refreshToken);
    return this.grant(refreshToken);
  }

  async refreshAccessToken(refreshToken: string): Promise<MarketplaceTokens> {
    this.call('token');
    if (!this.refreshTokens.has(refreshToken)) throw new MarketplaceError('refused', 400, 'fake marketplace: invalid_grant');
    return this.grant();
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
