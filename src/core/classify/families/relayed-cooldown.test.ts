import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { RELAYED_COOLDOWN_RULES } from "./relayed-cooldown.js";

const rows = [
  row(
    "R-EC-5: rate_limit cooldown · all credentials for model are cooling down",
    { provider: "relay", message: "all credentials for model gemini-3-pro are cooling down" },
    "rate_limit",
    "rate_limit/cooling-down",
  ),
  row(
    "R-EC-5: rate_limit cooldown · LiteLLM cooldown_list",
    { provider: "litellm", message: "Router: model group is in cooldown, cooldown_list=['deployment-1']" },
    "rate_limit",
    "rate_limit/cooling-down",
  ),
  row(
    "R-EC-5: rate_limit cooldown · no available auth profile",
    { provider: "openclaw", message: "No available auth profile for openai-codex (all unavailable)." },
    "rate_limit",
    "rate_limit/no-available-profile",
  ),
  row(
    "R-EC-5: rate_limit cooldown · LiteLLM no deployments available",
    { provider: "litellm", message: "No deployments available for selected model. Passed model=gpt-4o" },
    "rate_limit",
    "rate_limit/no-deployments-available",
  ),
  row(
    "R-EC-5: rate_limit cooldown · with 401 the status still decides",
    { provider: "relay", status: 401, message: "all credentials are cooling down" },
    "auth",
    "status/401-403",
  ),
];

describe("rate_limit relayed-cooldown family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every relayed-cooldown pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    RELAYED_COOLDOWN_RULES.map((rule) => rule.id),
  );
});
