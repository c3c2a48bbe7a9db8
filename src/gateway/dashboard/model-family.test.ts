import { describe, expect, it } from "vitest";
import { modelFamilyOf } from "./model-family.js";

describe("modelFamilyOf", () => {
  it("R-GW-12: one model on several clouds is one family", () => {
    for (const label of [
      "anthropic/claude-sonnet-4-6",
      "vertex/claude-sonnet-4-6@20260101",
      "openrouter/anthropic/claude-sonnet-4-6",
      "bedrock/us.anthropic.claude-sonnet-4-6-v1:0",
      "bedrock/anthropic.claude-sonnet-4-6-v1",
    ]) {
      expect(modelFamilyOf(label), label).toBe("claude-sonnet-4-6");
    }
    expect(modelFamilyOf("anthropic/claude-sonnet-4-5-20250929")).toBe("claude-sonnet-4-5");
    expect(modelFamilyOf("vertex/claude-sonnet-4-5@20250929")).toBe("claude-sonnet-4-5");
    expect(modelFamilyOf("azure-east/gpt-4o")).toBe(modelFamilyOf("azure-west/gpt-4o"));
  });

  it("keeps different models apart, and a label that is no provider/model as it is", () => {
    expect(modelFamilyOf("openai/gpt-4o")).not.toBe(modelFamilyOf("openai/gpt-4o-mini"));
    expect(modelFamilyOf("vertex-gemini/gemini-2.5-pro")).toBe("gemini-2.5-pro");
    expect(modelFamilyOf("other models")).toBe("other models");
  });
});
