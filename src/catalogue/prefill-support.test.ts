import { describe, expect, it } from "vitest";
import { describeModel } from "./model-catalogue.js";
import { catalogueSupportsPrefill } from "./prefill-support.js";

const rows: [provider: string, model: string, prefill: boolean | undefined][] = [
  ["anthropic", "claude-sonnet-4-6", false],
  ["anthropic", "claude-opus-4-6", false],
  ["anthropic", "claude-haiku-4-6", false],
  ["anthropic", "claude-opus-4-7-20260301", false],
  ["anthropic", "claude-sonnet-5", false],
  ["bedrock", "anthropic.claude-sonnet-4-6-v1:0", false],
  ["bedrock", "us.anthropic.claude-opus-4-6-v1:0", false],
  ["vertex", "claude-sonnet-4-6@20260101", false],
  ["openrouter", "anthropic/claude-sonnet-4.6", false],
  ["anthropic", "claude-sonnet-4-5", true],
  ["anthropic", "claude-sonnet-4-5-20250929", true],
  ["anthropic", "claude-opus-4-1", true],
  ["anthropic", "claude-sonnet-4-20250514", true],
  ["anthropic", "claude-3-7-sonnet-20250219", true],
  ["anthropic", "claude-3-5-haiku-latest", true],
  ["openrouter", "anthropic/claude-3.5-sonnet", true],
  ["openai", "gpt-4o", undefined],
  ["google", "gemini-2.5-pro", undefined],
  ["anthropic", "mock-claude", undefined],
];

describe("R-ST-4 the catalogue's prefill flag by model family", () => {
  it.each(rows)("R-ST-4: %s/%s supportsPrefill → %s", (provider, model, prefill) => {
    expect(catalogueSupportsPrefill(model)).toBe(prefill);
    expect(describeModel(provider, model).supportsPrefill).toBe(prefill);
  });

  it("R-ST-4: a configuration declaration still wins over the catalogue", () => {
    expect(describeModel("anthropic", "claude-sonnet-4-6", { supportsPrefill: true }).supportsPrefill).toBe(true);
    expect(describeModel("anthropic", "claude-sonnet-4-5", { supportsPrefill: false }).supportsPrefill).toBe(false);
  });
});
