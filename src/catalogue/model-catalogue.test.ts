import { describe, expect, it } from "vitest";
import { catalogueFacts, catalogueModelIds, describeModel } from "./model-catalogue.js";

describe("model catalogue", () => {
  it("knows the context window, output limit, modalities and prices of a well-known model", () => {
    const facts = catalogueFacts("openai", "gpt-4o");
    expect(facts.contextWindow).toBe(128000);
    expect(facts.maxOutputTokens).toBeGreaterThan(0);
    expect(facts.inputModalities).toContain("image");
    expect(facts.prices?.input).toBeGreaterThan(0);
    expect(facts.reasoning).toBe(false);
  });

  it("marks reasoning models", () => {
    expect(catalogueFacts("openai", "o3-mini").reasoning).toBe(true);
  });

  it("finds the newest dated snapshot of an undated id, and the undated entry of a dated one", () => {
    const undated = catalogueModelIds("anthropic").find((id) => /-\d{8}$/.test(id));
    expect(undated).toBeDefined();
    const base = undated!.replace(/-\d{8}$/, "");
    expect(catalogueFacts("anthropic", base).contextWindow).toBeGreaterThan(0);
    expect(catalogueFacts("openai", "gpt-4o-2099-01-01").contextWindow).toBe(128000);
  });

  it("knows nothing about unknown providers or models", () => {
    expect(catalogueFacts("acme", "gpt-4o")).toEqual({});
    expect(catalogueFacts("openai", "no-such-model")).toEqual({});
  });

  it("lets configuration declarations win over the catalogue", () => {
    const facts = describeModel("openai", "gpt-4o", { contextWindow: 1000, maxTokens: 50, supportsPrefill: true });
    expect(facts).toMatchObject({ contextWindow: 1000, maxOutputTokens: 50, supportsPrefill: true });
    expect(facts.prices?.input).toBeGreaterThan(0);
  });
});
