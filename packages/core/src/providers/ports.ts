/**
 * The ports of the dependencies object: what the domain may ask of the outside world (DESIGN §2). One adapter
 * per provider implements each (`kavenegar.ts`, `zarinpal.ts`, `cafebazaar.ts`, `openai.ts`); the fake twin
 * (`testing/fakeDeps.ts`) implements the same interfaces in memory, and the local fakes under `/_local/` speak
 * the providers' wire protocols. A domain asks `deps.sms`, `deps.gateway`, `deps.marketplace`, `deps.model`: it
 * never imports an adapter.
 */

// ---------------------------------------------------------------------------------------------------------
// sms (Kavenegar-style verify/lookup, providers.md §3)

export interface SmsSender {
  /** True when an API key is configured. */
  readonly configured: boolean;
  /** Sends `token` (the 6-digit code) to `receptor` using the verify template. */
  sendVerifyCode(receptor: string, token: string): Promise<void>;
  /**
   * Sends the approved verify/lookup `template` with `tokens` to `receptor` and says what became of it; never throws
   * for the provider's answers (the caller decides whether to try again), only for a missing API key
   * (`sms_unavailable`).
   */
  sendLookup(receptor: string, template: string, tokens: LookupTokens): Promise<LookupOutcome>;
}

/** The tokens of a verify/lookup message (Kavenegar: `token`, `token2`, `token3`, `token10`, `token20`); none may hold a space or `_` (431). */
export interface LookupTokens {
  token: string;
  token2?: string;
  token3?: string;
  token10?: string;
  token20?: string;
}

/**
 * What became of a lookup message: `sent` (the provider took it); `refused` (the provider answered with an error,
 * or could not be reached at all: nothing was sent), with the provider's status and whether it passes with time
 * (`transient`: busy, throttled, down), needs an operator (`configuration`: key, credit, template) or is the
 * number's (`receptor`, 411); `uncertain` (no clear answer: a timeout, a connection cut, an unreadable answer to a
 * request that reached it: it may have been sent).
 */
export type LookupOutcome =
  | { status: 'sent' }
  | { status: 'refused'; providerStatus: number; kind: 'transient' | 'configuration' | 'receptor' }
  | { status: 'uncertain'; reason: string };

// ---------------------------------------------------------------------------------------------------------
// web payment gateway (ZarinPal v4, providers.md §1)

/**
 * A gateway call that did not get an answer about the payment: `not_configured` (no merchant id), `unreachable`
 * (timeout, 5xx, a body that is not the gateway's), `callback_refused` (the gateway refused the callback URL because
 * its domain is not the terminal's registered domain: staff must register the API's domain in the gateway's panel),
 * `refused` (any other refusal, with the gateway's code). Adapters map their provider's codes to these kinds, so the
 * domain never reads a provider's code table.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly kind: 'not_configured' | 'unreachable' | 'callback_refused' | 'refused',
    /** The gateway's error code, for `refused`. */
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

export type VerifyOutcome =
  | { paid: true; code: 100 | 101; refId: string; cardPan?: string }
  | { paid: false; code: number; message: string };

export interface PaymentGateway {
  /** True when a merchant id is configured. */
  readonly configured: boolean;
  /** Asks for a payment session of `amountToman` (sent as rial); returns its authority. */
  request(input: { amountToman: number; description: string; callbackUrl: string; orderId: number }): Promise<{ authority: string }>;
  /** Verifies `authority` for `amountToman` (sent as rial). */
  verify(input: { authority: string; amountToman: number }): Promise<VerifyOutcome>;
  /** Paid but not yet verified payments (the gateway lists at most the last 100). */
  unverified(): Promise<Array<{ authority: string; amountRial: number }>>;
  /** The browser's start page of `authority`. */
  startPayUrl(authority: string): string;
}

// ---------------------------------------------------------------------------------------------------------
// marketplace (Cafe-Bazaar-style developer API: purchase validation and OAuth, providers.md §2; DESIGN §8)

/** How one call to the marketplace's API is authorized (spec Authentication 8 and 9). */
export type MarketplaceAuth = { kind: 'static_secret'; secret: string } | { kind: 'access_token'; accessToken: string };

/**
 * A marketplace call that did not give an answer about the purchase:
 * - `not_found`: HTTP 404 with `error: "not_found"`, the only answer proving the purchase does not exist (or was
 *   refunded) (providers.md §2 "Errors");
 * - `unauthorized`: 401 or 403, the credential was refused (revoked secret, expired access token);
 * - `unavailable`: 5xx, a timeout, a network error, a redirect, or a body that is not the marketplace's JSON;
 * - `refused`: any other 4xx (bad input; at the token endpoint `invalid_grant` / `invalid_client`).
 * `status` is the HTTP status when there was one. The message never holds a token.
 */
export class MarketplaceError extends Error {
  override name = 'MarketplaceError';
  constructor(
    readonly kind: 'not_found' | 'unauthorized' | 'unavailable' | 'refused',
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** An in-app purchase as the validate API answers it. Times are epoch ms. */
export interface InappPurchase {
  /** 0 purchased, 1 refunded. */
  purchaseState: number;
  /** 0 consumed, 1 not consumed. */
  consumptionState: number;
  /** The payload the app passed to the purchase (Poolakey `payload`), when the marketplace echoes one. */
  developerPayload?: string;
  purchaseTime: number;
}

/** A subscription purchase as the subscription status API answers it. Times are epoch ms. */
export interface SubscriptionPurchase {
  initiationTime: number;
  /** End of the paid period: the next billing, or the end date when not auto-renewing. */
  validUntil: number;
  autoRenewing: boolean;
}

/** What the OAuth token endpoint grants. */
export interface MarketplaceTokens {
  accessToken: string;
  /** Seconds the access token is valid (3600 at the marketplace). */
  expiresIn: number;
  /** Given by the authorization-code exchange (and by a refresh that rotates it). */
  refreshToken?: string;
}

export interface Marketplace {
  /** MARKETPLACE_PACKAGE_NAME, or undefined (then every purchase fails closed). */
  readonly packageName: string | undefined;
  /** True when an OAuth client (id and secret) is configured. */
  readonly oauthClientConfigured: boolean;
  /** Validates an in-app purchase of `productId`. Errors: {@link MarketplaceError}. */
  validateInapp(auth: MarketplaceAuth, productId: string, purchaseToken: string): Promise<InappPurchase>;
  /** The state of a subscription purchase of `subscriptionId`. Errors: {@link MarketplaceError}. */
  subscriptionStatus(auth: MarketplaceAuth, subscriptionId: string, purchaseToken: string): Promise<SubscriptionPurchase>;
  /** The account owner's consent page for the OAuth client, redirecting to `redirectUri` with `code` and `state`. */
  authorizeUrl(input: { redirectUri: string; state: string }): string;
  /** Exchanges a one-time authorization code. Errors: {@link MarketplaceError} (`refused` for a used or unknown code). */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<MarketplaceTokens>;
  /** A new access token from the stored refresh token. Errors: {@link MarketplaceError} (`refused`: the token was revoked). */
  refreshAccessToken(refreshToken: string): Promise<MarketplaceTokens>;
}

// ---------------------------------------------------------------------------------------------------------
// model (any OpenAI-compatible chat + embeddings API, providers.md §5)

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens of one model call, as the API reports them. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * Why the model stopped writing (OpenAI's `finish_reason`, providers.md §5): `stop` it ended its answer (or met a
 * stop sequence); `length` it reached its token cap (`max_completion_tokens`): the text is cut mid-way;
 * `content_filter` the provider's content filter withheld the rest; `tool_calls` / `function_call` it called a tool
 * (the tutor offers none). A compatible provider may send another value: read it as `stop`.
 */
export type FinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls' | 'function_call';

/**
 * One piece of a streamed answer: a text delta, the reason the model stopped (after its last text delta), or (last)
 * the call's usage. A piece may carry more than one; read each field of each piece.
 */
export interface ModelChunk {
  text?: string;
  finishReason?: FinishReason;
  usage?: TokenUsage;
}

export interface ModelClient {
  /** The chat model's name (AI_MODEL); part of the answer cache key. */
  readonly chatModel: string;
  /** The embedding model's name (AI_EMBEDDING_MODEL); stored with every chunk. */
  readonly embeddingModel: string;
  /**
   * Streams a chat completion: text deltas as the model writes them, then why it stopped ({@link FinishReason},
   * when the API says), then the usage when the API reports it. A stream that ends without a finish reason ended
   * as `stop` would (adapters and fakes need not send one). Throws (from the iterator) when the call fails or the
   * connection is cut; aborting `signal` stops it.
   */
  streamChat(messages: ChatMessage[], options: { signal: AbortSignal }): AsyncIterable<ModelChunk>;
  /** One embedding vector per text, in order. Throws when the call fails. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
