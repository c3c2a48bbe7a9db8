import { describe, expect, it } from "vitest";
import {
  CHARACTERS_PER_TOKEN,
  DEFAULT_OUTPUT_RESERVATION_TOKENS,
  TOKENS_PER_IMAGE,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_TOOL_DEFINITION,
  checkFit,
  estimateInputTokens,
  fitSkipMessage,
  nextCandidateAfterOverflow,
  requiredTokens,
} from "./fit.js";

describe("pre-call fit", () => {
  it("R-FB-8: the estimate is characters / 4 plus fixed costs per image, tool definition and message", () => {
    expect(CHARACTERS_PER_TOKEN).toBe(4);
    expect(estimateInputTokens({ textCharacters: 0, images: 0, toolDefinitions: 0, messages: 0 })).toBe(0);
    expect(estimateInputTokens({ textCharacters: 401, images: 0, toolDefinitions: 0, messages: 0 })).toBe(101);
    expect(estimateInputTokens({ textCharacters: 400, images: 2, toolDefinitions: 3, messages: 5 })).toBe(
      100 + 2 * TOKENS_PER_IMAGE + 3 * TOKENS_PER_TOOL_DEFINITION + 5 * TOKENS_PER_MESSAGE,
    );
  });

  it.each([
    ["max_tokens when the request names it", { maxOutputTokens: 10_000 }, { maxOutputTokens: 4_000 }, 11_000],
    ["the default reservation without max_tokens", {}, {}, 1_000 + DEFAULT_OUTPUT_RESERVATION_TOKENS],
    ["capped by the model's own output limit", {}, { maxOutputTokens: 1_024 }, 2_024],
  ])("R-FB-8: the output reserved is %s", (_name, request, model, expected) => {
    expect(requiredTokens({ inputTokens: 1_000, modalities: [], ...request }, model)).toBe(expected);
  });

  it.each([
    ["fits a known window", { inputTokens: 100_000, maxOutputTokens: 28_000 }, { contextWindow: 128_000 }, { fits: true }],
    [
      "does not fit a known window",
      { inputTokens: 100_000, maxOutputTokens: 28_001 },
      { contextWindow: 128_000 },
      { fits: false, reason: "context_overflow", requiredTokens: 128_001, contextWindow: 128_000 },
    ],
    ["fits an unknown window whatever its size", { inputTokens: 10_000_000 }, {}, { fits: true }],
  ])("R-FB-8: a request %s", (_name, request, model, expected) => {
    expect(checkFit({ modalities: [], ...request }, model)).toEqual(expected);
  });

  it("R-FB-8: images need a model that lists image input; unknown modalities never exclude", () => {
    const request = { inputTokens: 10, modalities: ["image" as const] };
    expect(checkFit(request, { inputModalities: ["text"] })).toEqual({ fits: false, reason: "incompatible", modality: "image" });
    expect(checkFit(request, { inputModalities: ["text", "image"] })).toEqual({ fits: true });
    expect(checkFit(request, {})).toEqual({ fits: true });
  });

  it("R-FB-8: the attempt texts of a fit skip", () => {
    expect(fitSkipMessage("openai/gpt-4o", { fits: false, reason: "context_overflow", requiredTokens: 200_000, contextWindow: 128_000 })).toBe(
      "Skipping openai/gpt-4o: request (~200000 tokens) exceeds its context window (128000)",
    );
    expect(fitSkipMessage("openai/gpt-3.5-turbo", { fits: false, reason: "incompatible", modality: "image" })).toBe(
      "Skipping openai/gpt-3.5-turbo: it does not accept image input",
    );
  });
});

describe("context overflow onward (R-FB-5)", () => {
  it.each([
    ["the first later larger window", [200_000, 100_000, 400_000, 1_000_000], 0, 2],
    ["a later unknown window", [200_000, 100_000, undefined, 1_000_000], 0, 2],
    ["the very next candidate when the failing window is unknown", [undefined, 100_000, 400_000], 0, 1],
    ["none when every later known window is not larger", [200_000, 200_000, 100_000], 0, -1],
    ["none at the end of the chain", [200_000], 0, -1],
    ["only later candidates", [1_000_000, 200_000, 100_000, 400_000], 1, 3],
  ])("R-FB-5: moves on to %s", (_name, windows, failed, expected) => {
    expect(nextCandidateAfterOverflow(windows, failed)).toBe(expected);
  });
});
