/**
 * Test support for the classification tables: one `it` per row (titles start with the rule id), and a
 * coverage check that every rule of a table decides at least one row, so no pattern is untested.
 */
import { expect, it } from "vitest";
import type { FailoverReason } from "../../reasons.js";
import type { FailureInput } from "../../types.js";
import { explainFailure } from "../index.js";

export interface ClassificationRow {
  /** Starts with the SPEC rule id, then names the provider sample. */
  readonly title: string;
  readonly input: FailureInput;
  readonly reason: FailoverReason;
  /** The table row expected to decide (a rule id such as `status/429` or `rate_limit/too-many-requests`). */
  readonly rule?: string;
}

export function row(title: string, input: FailureInput, reason: FailoverReason, rule?: string): ClassificationRow {
  return rule === undefined ? { title, input, reason } : { title, input, reason, rule };
}

export function testClassificationRows(rows: readonly ClassificationRow[]): void {
  for (const entry of rows) {
    it(entry.title, () => {
      const { classification, ruleId } = explainFailure(entry.input);
      expect(classification.reason).toBe(entry.reason);
      if (entry.rule !== undefined) expect(ruleId).toBe(entry.rule);
    });
  }
}

/** Every listed rule id decides at least one of the rows. */
export function testRuleCoverage(title: string, rows: readonly ClassificationRow[], ruleIds: readonly string[]): void {
  it(title, () => {
    const decided = new Set(rows.map((entry) => explainFailure(entry.input).ruleId));
    expect(ruleIds.filter((id) => !decided.has(id))).toEqual([]);
  });
}
