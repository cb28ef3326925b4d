/**
 * The ports of the dependencies object: what the domain may ask of the outside world (DESIGN §2). One adapter
 * per provider implements each (`kavenegar.ts`, `zarinpal.ts`, `openai.ts`); the fake twin
 * (`testing/fakeDeps.ts`) implements the same interfaces in memory, and the local fakes under `/_local/` speak
 * the providers' wire protocols. A domain asks `deps.sms`, `deps.gateway`, `deps.model`: it never imports an
 * adapter.
 */

// ---------------------------------------------------------------------------------------------------------
// sms (Kavenegar-style verify/lookup, providers.md §3)

export interface SmsSender {
  /** True when an API key is configured. */
  readonly configured: boolean;
  /** Sends `token` (the 6-digit code) to `receptor` using the verify template. */
  sendVerifyCode(receptor: string, token: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// web payment gateway (ZarinPal v4, providers.md §1)

export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly kind: 'not_configured' | 'unreachable' | 'refused',
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

/** One piece of a streamed answer: a text delta, or (last) the call's usage. */
export interface ModelChunk {
  text?: string;
  usage?: TokenUsage;
}

export interface ModelClient {
  /** The chat model's name (AI_MODEL); part of the answer cache key. */
  readonly chatModel: string;
  /** The embedding model's name (AI_EMBEDDING_MODEL); stored with every chunk. */
  readonly embeddingModel: string;
  /**
   * Streams a chat completion: text deltas as the model writes them, then the usage when the API reports it.
   * Throws (from the iterator) when the call fails or the connection is cut; aborting `signal` stops it.
   */
  streamChat(messages: ChatMessage[], options: { signal: AbortSignal }): AsyncIterable<ModelChunk>;
  /** One embedding vector per text, in order. Throws when the call fails. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
