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

/**
 * A wire's finish reasons both ways, kept as data: `toCanonical` has one row per value the wire sends,
 * `fromCanonical` one per canonical reason (the word Detour writes when it answers in that wire), and
 * `map` reads a wire value as `lookupFinishReason` does.
 */
export interface FinishReasonTables<Sent extends string, Written extends string> {
  readonly toCanonical: Readonly<Record<Sent, CanonicalFinishReason>> & FinishReasonTable;
  readonly fromCanonical: Readonly<Record<CanonicalFinishReason, Written>>;
  readonly map: (raw: string) => CanonicalFinishReason;
}

export function finishReasonTables<Sent extends string, Written extends string>(
  toCanonical: Readonly<Record<Sent, CanonicalFinishReason>>,
  fromCanonical: Readonly<Record<CanonicalFinishReason, Written>>,
): FinishReasonTables<Sent, Written> {
  const table = toCanonical as Readonly<Record<Sent, CanonicalFinishReason>> & FinishReasonTable;
  return { toCanonical: table, fromCanonical, map: (raw) => lookupFinishReason(table, raw) };
}
