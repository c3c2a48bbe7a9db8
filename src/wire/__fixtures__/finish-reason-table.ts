/**
 * The checks every wire's finish-reason table gets: each listed wire value maps as listed, every row of the
 * table is listed, and a value the table does not have (an inherited object key too) reads as "stop".
 */
import { expect, it } from "vitest";
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import type { FinishReasonTable } from "../shared/finish-reasons.js";

export function itMapsEveryFinishReason(
  map: (raw: string) => CanonicalFinishReason,
  table: FinishReasonTable,
  rows: readonly (readonly [string, CanonicalFinishReason])[],
): void {
  it.each(rows)("%s → %s", (raw, expected) => {
    expect(map(raw)).toBe(expected);
  });

  it("every table row has a test row, and unknown values mean stop", () => {
    expect(Object.keys(table).sort()).toEqual(rows.map(([raw]) => raw).sort());
    expect(map("something_new")).toBe("stop");
    expect(map("constructor")).toBe("stop");
  });
}
