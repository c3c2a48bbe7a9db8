/**
 * The learned first-token figures (R-TT-1, R-HG-2) kept where another process can read them: the samples live
 * in the gateway's memory, so `detour status` — a process of its own — shows what the gateway last wrote here.
 * One row per (provider, model); a row not written again within `FIRST_TOKEN_SUMMARY_TTL_MS` expires (the
 * gateway stopped, or stopped calling that model). Three backends (memory, sqlite, redis) implement it; one
 * contract suite checks them.
 */

/** One model's learned first-token figures, as the gateway computed them. */
export interface FirstTokenSummaryRow {
  provider: string;
  model: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** The first-token deadline in force for the model. */
  deadlineMs: number;
  /** How long an attempt may go without first content before it is raced; null when hedging is off. */
  hedgeAfterMs: number | null;
}

export interface FirstTokenSummaryStore {
  /** Writes the rows (replacing each model's earlier row), stamped `now`, and drops the expired ones. */
  write(rows: readonly FirstTokenSummaryRow[], now: number): Promise<void>;
  /** The rows written within the last `FIRST_TOKEN_SUMMARY_TTL_MS`, by provider then model. */
  read(now: number): Promise<FirstTokenSummaryRow[]>;
  close(): Promise<void>;
}

/** How long a written row is shown: ten gateway writes (every 30 s) missed means the figures are stale. */
export const FIRST_TOKEN_SUMMARY_TTL_MS = 5 * 60_000;

/** At most this many rows are written at once, whatever the config names. */
export const MAX_FIRST_TOKEN_SUMMARY_ROWS = 200;

export function byModel(a: FirstTokenSummaryRow, b: FirstTokenSummaryRow): number {
  return `${a.provider}/${a.model}`.localeCompare(`${b.provider}/${b.model}`);
}
