import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { catalogueMarksReasoning, firstTokenTimeoutMs } from "./first-token-timeout.js";

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
