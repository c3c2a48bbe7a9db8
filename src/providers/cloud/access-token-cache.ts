/**
 * A short-lived cloud access token (a Vertex service-account token, a Microsoft Entra token), kept until
 * shortly before it expires and fetched again single-flight (like R-AP-5's refresh): however many attempts
 * need a token at once, one request goes to the token endpoint and they all wait for its answer.
 */
import { raceAbort } from "../../core/race-abort.js";

export interface AccessToken {
  token: string;
  /** Epoch milliseconds; undefined when the issuer did not say (the token is then kept for `fallbackLifetimeMs`). */
  expiresAt?: number;
}

export interface AccessTokenCacheOptions {
  fetch: (signal: AbortSignal | undefined) => Promise<AccessToken>;
  now?: () => number;
  /** Fetch a new token this long before the old one expires, so no call goes out with a token about to lapse. */
  refreshBeforeMs?: number;
  fallbackLifetimeMs?: number;
}

const DEFAULT_REFRESH_BEFORE_MS = 5 * 60_000;
const DEFAULT_FALLBACK_LIFETIME_MS = 10 * 60_000;

export class AccessTokenCache {
  readonly #fetch: AccessTokenCacheOptions["fetch"];
  readonly #now: () => number;
  readonly #refreshBeforeMs: number;
  readonly #fallbackLifetimeMs: number;
  #current: { token: string; usableUntil: number } | undefined;
  #inFlight: Promise<string> | undefined;

  constructor(options: AccessTokenCacheOptions) {
    this.#fetch = options.fetch;
    this.#now = options.now ?? Date.now;
    this.#refreshBeforeMs = options.refreshBeforeMs ?? DEFAULT_REFRESH_BEFORE_MS;
    this.#fallbackLifetimeMs = options.fallbackLifetimeMs ?? DEFAULT_FALLBACK_LIFETIME_MS;
  }

  /** A usable token: the kept one, the one being fetched, or a new fetch. A failed fetch is not kept. */
  async token(signal?: AbortSignal): Promise<string> {
    const current = this.#current;
    if (current && this.#now() < current.usableUntil) return current.token;
    // The shared fetch is not tied to one caller's signal: a caller that gives up must not fail the others.
    this.#inFlight ??= this.#refresh().finally(() => {
      this.#inFlight = undefined;
    });
    return signal ? raceAbort(this.#inFlight, signal) : this.#inFlight;
  }

  /**
   * Forget the kept token (the upstream refused it): the next call fetches a new one. Given the refused token,
   * only that one is forgotten: a newer token another call fetched meanwhile is kept.
   */
  invalidate(refused?: string): void {
    if (refused === undefined || this.#current?.token === refused) this.#current = undefined;
  }

  async #refresh(): Promise<string> {
    const fetched = await this.#fetch(undefined);
    const now = this.#now();
    const usableUntil =
      fetched.expiresAt === undefined
        ? now + this.#fallbackLifetimeMs
        : // A token that lives shorter than the margin is still used once rather than fetched on every call.
          Math.max(fetched.expiresAt - this.#refreshBeforeMs, Math.min(fetched.expiresAt, now + 1_000));
    this.#current = { token: fetched.token, usableUntil };
    return fetched.token;
  }
}
