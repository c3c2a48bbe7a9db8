import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { PROVIDER_SCOPED_RULES } from "./provider-scoped.js";

const rows = [
  row(
    "R-EC-5: provider-scoped · OpenRouter bare 'Provider returned error' is a timeout",
    { provider: "openrouter", message: "Provider returned error" },
    "timeout",
    "provider_scoped/openrouter-provider-returned-error",
  ),
  row(
    "R-EC-5: provider-scoped · OpenRouter body whose only message is 'Provider returned error'",
    { provider: "OpenRouter", message: '{"error":{"message":"Provider returned error","metadata":{"provider_name":"Chutes"}}}' },
    "timeout",
    "provider_scoped/openrouter-provider-returned-error",
  ),
  row(
    "R-EC-5: provider-scoped · 'Provider returned error' from any other provider stays unclassified",
    { provider: "openai", message: "Provider returned error" },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-5: provider-scoped · 'Provider returned error' without a provider stays unclassified",
    { message: "Provider returned error" },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-5: provider-scoped · OpenRouter 'Key limit exceeded' without a status is billing",
    { provider: "openrouter", message: "Key limit exceeded. Manage it using https://openrouter.ai/settings/keys" },
    "billing",
    "provider_scoped/openrouter-key-limit-exceeded",
  ),
  row(
    "R-EC-5: provider-scoped · 'Key limit exceeded' from another provider is not billing",
    { provider: "anthropic", message: "Key limit exceeded" },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-5: provider-scoped · generic 'LLM request failed with an unknown error.' stays unclassified",
    { provider: "openai", message: "LLM request failed with an unknown error." },
    "unclassified",
    "provider_scoped/llm-request-failed-unknown",
  ),
  row(
    "R-EC-5: provider-scoped · the generic text stays unclassified for OpenRouter too",
    { provider: "openrouter", message: "LLM request failed with an unknown error." },
    "unclassified",
    "provider_scoped/llm-request-failed-unknown",
  ),
];

describe("provider-scoped rows", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every provider-scoped row decides at least one row",
    [...rows, ...MISREAD_ROWS],
    PROVIDER_SCOPED_RULES.map((rule) => rule.id),
  );
});
