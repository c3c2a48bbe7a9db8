import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { NO_ERROR_DETAILS_RULES } from "./no-error-details.js";

const rows = [
  row(
    "R-EC-2: no_error_details · the runtime's exact text",
    { provider: "openai", message: "Unknown error (no error details in response)" },
    "no_error_details",
    "no_error_details/exact-text",
  ),
  row(
    "R-EC-2: no_error_details · surrounding whitespace is not part of the text",
    { provider: "anthropic", message: "  Unknown error (no error details in response)\n" },
    "no_error_details",
    "no_error_details/exact-text",
  ),
  row(
    "R-EC-2: no_error_details · only the exact text counts; with extra words it is unclassified",
    { message: "Unknown error (no error details in response) after 3 retries" },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-2: no_error_details · a different casing is not the exact text",
    { message: "unknown error (No error details in response)" },
    "unclassified",
    "fallback/unclassified",
  ),
];

describe("no_error_details", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-2: the no_error_details row decides at least one row",
    [...rows, ...MISREAD_ROWS],
    NO_ERROR_DETAILS_RULES.map((rule) => rule.id),
  );
});
