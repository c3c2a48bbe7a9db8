/** Finish-reason tables: one row per wire value, and what an unknown value means. */
import type { CanonicalFinishReason } from "../../ports/canonical.js";

export type FinishReasonTable = Readonly<Record<string, CanonicalFinishReason>>;

/**
 * Looks a wire finish reason up. Unknown values mean "stop": the answer arrived and a provider adding a
 * new benign reason must not turn working answers into failures.
 */
export function lookupFinishReason(table: FinishReasonTable, raw: string): CanonicalFinishReason {
  return Object.hasOwn(table, raw) ? (table[raw] as CanonicalFinishReason) : "stop";
}
