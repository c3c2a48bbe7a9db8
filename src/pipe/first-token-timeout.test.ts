import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { attemptStreamBudgets, catalogueMarksReasoning, firstTokenTimeoutMs } from "./first-token-timeout.js";

describe("firstTokenTimeoutMs (R-ST-6: the first-token watchdog follows the model)", () => {
  it("R-ST-6: unset, ordinary models wait 15 s and catalogue reasoning models 60 s", () => {
    expect(catalogueMarksReasoning("openai", "gpt-4o-mini")).toBe(false);
    expect(catalogueMarksReasoning("openai", "o3")).toBe(true);
    expect(firstTokenTimeoutMs({}, { provider: "openai", model: "gpt-4o-mini" })).toBe(15_000);
    expect(firstTokenTimeoutMs({}, { provider: "openai", model: "o3" })).toBe(60_000);
    expect(firstTokenTimeoutMs({}, { provider: "google", model: "gemini-2.5-flash" })).toBe(60_000);
    // A model the catalogue does not know is an ordinary model.
    expect(firstTokenTimeoutMs({}, { provider: "ollama", model: "my-local-model" })).toBe(15_000);
  });

  it("R-ST-6: a configured gateway.ttftTimeoutSeconds applies to every model", () => {
    expect(firstTokenTimeoutMs({ ttftTimeoutSeconds: 7 }, { provider: "openai", model: "o3" })).toBe(7_000);
    expect(firstTokenTimeoutMs({ ttftTimeoutSeconds: 90 }, { provider: "openai", model: "gpt-4o-mini" })).toBe(90_000);
  });

  it("R-ST-6: an injected reasoning judgement replaces the catalogue's", () => {
    const isReasoningModel = (_provider: string, model: string) => model.startsWith("think-");
    expect(firstTokenTimeoutMs({ isReasoningModel }, { provider: "ollama", model: "think-r1" })).toBe(60_000);
    expect(firstTokenTimeoutMs({ isReasoningModel }, { provider: "openai", model: "o3" })).toBe(15_000);
  });

  it("R-ST-6: the config leaves gateway.ttftTimeoutSeconds unset unless written, and keeps a written value", () => {
    expect(parseConfig({}).config.gateway.ttftTimeoutSeconds).toBeUndefined();
    expect(parseConfig({ gateway: { ttftTimeoutSeconds: 20 } }).config.gateway.ttftTimeoutSeconds).toBe(20);
  });
});

describe("attemptStreamBudgets (R-GW-10: a continuation keeps the client's stream from going silent)", () => {
  const clock = { now: () => 0, sleep: async () => {}, setTimer: () => () => {} };
  const signal = new AbortController().signal;

  it("R-GW-10: a continuation's first-token budget is at most streamStallSeconds; a first attempt keeps its own", () => {
    const settings = { clock, ttftTimeoutSeconds: 15, streamStallSeconds: 2 };
    expect(attemptStreamBudgets(settings, { provider: "openai", model: "gpt-4o-mini", signal }, undefined)).toMatchObject({
      ttftTimeoutMs: 15_000,
      stallTimeoutMs: 2_000,
    });
    expect(attemptStreamBudgets(settings, { provider: "openai", model: "gpt-4o-mini", signal, continuation: 1 }, undefined)).toMatchObject({
      ttftTimeoutMs: 2_000,
      stallTimeoutMs: 2_000,
    });
    // A first-token budget already shorter than the stall budget stays as it is.
    expect(
      attemptStreamBudgets(
        { clock, ttftTimeoutSeconds: 1, streamStallSeconds: 30 },
        { provider: "openai", model: "o3", signal, continuation: 2 },
        undefined,
      ).ttftTimeoutMs,
    ).toBe(1_000);
  });
});
