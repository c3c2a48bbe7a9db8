/**
 * R-HG-3: hedged attempts of one provider stay a small share of its requests, so an outage never doubles
 * the load on a provider that is already struggling. A token bucket per provider, as gRPC's hedging
 * throttle: it starts full with `burst` tokens (a quiet gateway can still hedge its first slow request),
 * every request adds `budgetPercent / 100` of a token up to `burst`, and a hedge spends one whole token.
 * Over a run of requests the hedges are at most `budgetPercent` % of them, plus the burst.
 */
export interface HedgeBudgetSettings {
  /** Hedges allowed per 100 requests of the provider. */
  readonly budgetPercent: number;
  /** Tokens the bucket starts with and holds at most. */
  readonly burst: number;
}

const PROVIDERS_KEPT = 256;

export class HedgeBudget {
  readonly #tokens = new Map<string, number>();

  constructor(private readonly settings: HedgeBudgetSettings) {}

  #current(provider: string): number {
    return this.#tokens.get(provider) ?? this.settings.burst;
  }

  #set(provider: string, tokens: number): void {
    if (!this.#tokens.has(provider) && this.#tokens.size >= PROVIDERS_KEPT) {
      this.#tokens.delete(this.#tokens.keys().next().value as string);
    }
    this.#tokens.set(provider, tokens);
  }

  /** A request (not a hedge) went to `provider`. */
  noteRequest(provider: string): void {
    const refill = this.settings.budgetPercent / 100;
    this.#set(provider, Math.min(this.settings.burst, this.#current(provider) + refill));
  }

  /** Spends a token for a hedge to `provider`; false when the budget is spent (the runner waits instead). */
  tryHedge(provider: string): boolean {
    const tokens = this.#current(provider);
    if (tokens < 1) return false;
    this.#set(provider, tokens - 1);
    return true;
  }

  /** A hedge that found nothing to call gives its token back. */
  refund(provider: string): void {
    this.#set(provider, Math.min(this.settings.burst, this.#current(provider) + 1));
  }

  /** Whole hedges `provider` could start now (for status). */
  available(provider: string): number {
    return Math.floor(this.#current(provider));
  }
}
