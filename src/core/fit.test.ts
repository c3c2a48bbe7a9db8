import { describe, expect, it } from "vitest";
import type { RequestFacts } from "./fit.js";
import {
  CHARACTERS_PER_TOKEN,
  DEFAULT_OUTPUT_RESERVATION_TOKENS,
  TOKENS_PER_IMAGE,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_TOOL_DEFINITION,
  boundOfBody,
  checkFit,
  checkRequestFit,
  deferRequestFacts,
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
    expect(
      fitSkipMessage("openai/gpt-4o", { fits: false, reason: "context_overflow", requiredTokens: 200_000, contextWindow: 128_000 }),
    ).toBe("Skipping openai/gpt-4o: request (~200000 tokens) exceeds its context window (128000)");
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

describe("facts on demand (R-FB-8 on the same-wire lane)", () => {
  const MEGABYTE = 1024 * 1024;
  /** Deferred facts whose exact value is `exact`, counting how often it was computed. */
  function counted(bound: Parameters<typeof deferRequestFacts>[0], exact: RequestFacts | undefined) {
    const calls = { count: 0 };
    const facts = deferRequestFacts(bound, () => {
      calls.count += 1;
      return exact;
    });
    return { facts, calls };
  }
  const textBody = boundOfBody({ byteLength: MEGABYTE, messages: 300, tools: 0, mayCarryImages: false });

  it("R-FB-8: a model of unknown window and modalities never asks for the exact facts of a 1 MB body", () => {
    const { facts, calls } = counted(textBody, { inputTokens: 250_000, modalities: [] });
    expect(checkRequestFit(facts, {})).toEqual({ fits: true });
    expect(checkRequestFit(facts, { maxOutputTokens: 8_000 })).toEqual({ fits: true });
    expect(calls.count).toBe(0);
  });

  it("R-FB-8: nor reads the bytes for a bound (the image search of the lane) when nothing is known of any candidate", () => {
    let bounds = 0;
    const facts = deferRequestFacts(
      () => {
        bounds += 1;
        return textBody;
      },
      () => ({ inputTokens: 250_000, modalities: [] }),
    );
    expect(checkRequestFit(facts, {})).toEqual({ fits: true });
    expect(bounds).toBe(0);
    // A known window reads it, once.
    expect(checkRequestFit(facts, { contextWindow: 1_000_000 })).toEqual({ fits: true });
    expect(checkRequestFit(facts, { contextWindow: 2_000_000 })).toEqual({ fits: true });
    expect(bounds).toBe(1);
  });

  it("R-FB-8: a window the bound stays under settles the candidate without the exact facts", () => {
    const small = boundOfBody({ byteLength: 40_000, messages: 10, tools: 2, maxOutputTokens: 1_000, mayCarryImages: false });
    // 10 000 + 80 + 118 + 1 000 reserved.
    expect(small.inputTokens).toBe(10_000 + 2 * TOKENS_PER_MESSAGE * 10 + (TOKENS_PER_TOOL_DEFINITION + 9) * 2);
    const { facts, calls } = counted(small, { inputTokens: 9_000, maxOutputTokens: 1_000, modalities: [] });
    expect(checkRequestFit(facts, { contextWindow: 128_000 })).toEqual({ fits: true });
    expect(calls.count).toBe(0);
  });

  it("R-FB-8: a known window the bound exceeds is decided by the exact estimate, computed once for every candidate", () => {
    const exact: RequestFacts = { inputTokens: 240_000, modalities: [] };
    const { facts, calls } = counted(textBody, exact);
    const decision = checkRequestFit(facts, { contextWindow: 128_000, maxOutputTokens: 16_384 });
    // The decision and its text are the exact facts', as if they had been known up front.
    expect(decision).toEqual(checkFit(exact, { contextWindow: 128_000, maxOutputTokens: 16_384 }));
    if (decision.fits) throw new Error("expected a skip");
    expect(fitSkipMessage("openai/gpt-4o", decision)).toBe(
      "Skipping openai/gpt-4o: request (~244096 tokens) exceeds its context window (128000)",
    );
    // The bound says "maybe" again for a larger window; the exact facts say it fits, without a second parse.
    expect(checkRequestFit(facts, { contextWindow: 260_000 })).toEqual({ fits: true });
    expect(calls.count).toBe(1);
  });

  it("R-FB-8: max_tokens in the bound counts against the window before any parse", () => {
    const asking = boundOfBody({ byteLength: 4_000, messages: 1, tools: 0, maxOutputTokens: 120_000, mayCarryImages: false });
    const { facts, calls } = counted(asking, { inputTokens: 900, maxOutputTokens: 120_000, modalities: [] });
    expect(checkRequestFit(facts, { contextWindow: 100_000 })).toMatchObject({ fits: false, requiredTokens: 120_900 });
    expect(calls.count).toBe(1);
  });

  it("R-FB-8: a body that may carry images asks a text-only model's exact facts: skipped incompatible only for a real image", () => {
    const imageBound = boundOfBody({ byteLength: 200_000, messages: 2, tools: 0, mayCarryImages: true });
    expect(imageBound).toEqual({ modalities: ["image"] });
    const withImage = counted(imageBound, { inputTokens: 2_000, modalities: ["image"] });
    expect(checkRequestFit(withImage.facts, { inputModalities: ["text"] })).toEqual({
      fits: false,
      reason: "incompatible",
      modality: "image",
    });
    // "image" was only a word in the text: the exact facts carry none.
    const wordOnly = counted(imageBound, { inputTokens: 50_000, modalities: [] });
    expect(checkRequestFit(wordOnly.facts, { inputModalities: ["text"] })).toEqual({ fits: true });
    // An image model of unknown window needs neither.
    const unknown = counted(imageBound, { inputTokens: 2_000, modalities: ["image"] });
    expect(checkRequestFit(unknown.facts, { inputModalities: ["text", "image"] })).toEqual({ fits: true });
    expect(unknown.calls.count).toBe(0);
  });

  it("R-FB-8: a body without an input bound asks the exact facts for any known window; unreadable facts exclude nobody", () => {
    const { facts, calls } = counted({ modalities: [] }, undefined);
    expect(checkRequestFit(facts, { contextWindow: 1_000 })).toEqual({ fits: true });
    expect(checkRequestFit(facts, { contextWindow: 2_000 })).toEqual({ fits: true });
    expect(calls.count).toBe(1);
  });
});
