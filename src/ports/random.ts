/** Randomness is injected so jitter is deterministic in tests. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
}
