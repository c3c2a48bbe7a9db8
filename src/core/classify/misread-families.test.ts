import { describe, expect, it } from "vitest";
import { testClassificationRows } from "./__fixtures__/classification-table.js";
import { MISREAD_ROWS, type MisreadFamily } from "./__fixtures__/misread-families.js";

const FAMILIES: readonly MisreadFamily[] = [
  "status-in-text",
  "extra-usage",
  "spend-limit",
  "credentials",
  "context-overflow",
  "cli-session",
  "transient-text",
  "request-format",
];

describe("R-EC-5: families of texts once misread", () => {
  testClassificationRows(MISREAD_ROWS);

  it("R-EC-5: every family has at least five rows, each naming its source", () => {
    for (const family of FAMILIES) expect(MISREAD_ROWS.filter((entry) => entry.family === family).length, family).toBeGreaterThanOrEqual(5);
    expect(MISREAD_ROWS.filter((entry) => entry.source.trim() === "")).toEqual([]);
  });
});
