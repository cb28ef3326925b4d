/**
 * The marketplace OAuth access token of one worker (DESIGN §2: per-worker state lives in the dependencies object,
 * `Deps.marketplaceTokens`), with the one refresh in flight shared by concurrent callers (access.ts).
 */

/** An access token is refreshed this many seconds before the marketplace says it expires. */
export const ACCESS_TOKEN_MARGIN_SECONDS = 60;

export class AccessTokenCache {
  private token: { value: string; validUntilMs: number } | undefined;
  /** The refresh in flight, if any. */
  pending: Promise<string> | undefined;

  /** The cached token if still valid at `nowMs` (epoch ms). */
  get(nowMs: number): string | undefined {
    return this.token && nowMs < this.token.validUntilMs ? this.token.value : undefined;
  }

  /** Caches `value`, granted at `nowMs` (epoch ms) for `expiresInSeconds`. */
  set(value: string, nowMs: number, expiresInSeconds: number): void {
    this.token = { value, validUntilMs: nowMs + Math.max(0, expiresInSeconds - ACCESS_TOKEN_MARGIN_SECONDS) * 1000 };
  }

  clear(): void {
    this.token = undefined;
  }
}
