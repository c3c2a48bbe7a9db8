import { describe, expect, it } from "vitest";
import { PROVIDER_CORPUS } from "./__fixtures__/provider-corpus.js";
import { classifyFailure } from "./index.js";

describe("R-EC-5: provider error corpus", () => {
  for (const entry of PROVIDER_CORPUS) {
    it(`R-EC-5: ${entry.provider} → ${entry.reason}: ${(entry.input.message ?? "").slice(0, 90)}`, () => {
      expect(classifyFailure({ provider: entry.provider, ...entry.input }).reason).toBe(entry.reason);
    });
  }

  it("R-EC-5: the corpus covers every provider family the classifier was built from", () => {
    const providers = new Set(PROVIDER_CORPUS.map((entry) => entry.provider));
    for (const provider of [
      "openai",
      "anthropic",
      "google",
      "bedrock",
      "azure",
      "openrouter",
      "groq",
      "mistral",
      "deepseek",
      "xai",
      "together",
      "fireworks",
      "zai",
      "moonshot",
      "qwen",
      "cerebras",
      "ollama",
      "vllm",
    ]) {
      expect(providers.has(provider)).toBe(true);
    }
  });
});
