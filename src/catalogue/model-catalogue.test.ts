import { afterEach, describe, expect, it } from "vitest";
import {
  CATALOGUE_PROVIDER_IDS,
  catalogueFacts,
  catalogueModelIds,
  describeModel,
  explainModel,
  useRefreshedCatalogue,
} from "./model-catalogue.js";

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

describe("model catalogue layers", () => {
  const refreshedCatalogue = (models: Record<string, object>) => ({
    fetchedAt: "2026-11-30T10:00:00.000Z",
    source: "http://127.0.0.1:1/api.json",
    providers: { anthropic: { models: Object.fromEntries(Object.entries(models).map(([id, entry]) => [id, { id, ...entry }])) } },
  });

  afterEach(() => useRefreshedCatalogue(undefined));

  it.each([
    ["claude-sonnet-4-5", 200_000, 3],
    ["claude-haiku-4-5", 200_000, 1],
    ["claude-sonnet-4-6", 200_000, 3],
    ["claude-opus-4-6", 200_000, 5],
  ])("R-GW-12 the bundled snapshot knows the window and prices of %s", (model, window, inputPrice) => {
    const facts = catalogueFacts("anthropic", model);
    expect(facts.contextWindow).toBe(window);
    expect(facts.prices?.input).toBe(inputPrice);
    expect(facts.prices?.cacheRead).toBeCloseTo(inputPrice / 10);
    expect(catalogueModelIds("anthropic")).toEqual(expect.arrayContaining(["claude-sonnet-4-6", "claude-sonnet-4-20250514"]));
  });

  it.each([
    ["openai", "gpt-5.2", 1.75],
    ["openai", "gpt-5.1-codex", 1.25],
    ["openai-codex", "gpt-5.1-codex", 1.25],
    ["google", "gemini-3-pro-preview", 2],
  ])("R-GW-12 the bundled snapshot knows %s/%s", (provider, model, inputPrice) => {
    expect(catalogueFacts(provider, model).prices?.input).toBe(inputPrice);
  });

  it("R-GW-12 a refreshed models.dev catalogue answers before the bundled rows, and config declarations before both", () => {
    useRefreshedCatalogue(
      refreshedCatalogue({ "claude-sonnet-4-6": { cost: { input: 2.5, output: 12 }, limit: { context: 1_000_000, output: 64_000 } } }),
    );
    expect(catalogueFacts("anthropic", "claude-sonnet-4-6")).toMatchObject({
      contextWindow: 1_000_000,
      prices: { input: 2.5, output: 12 },
    });
    // A model the refreshed list lacks still comes from the layers below it.
    expect(catalogueFacts("anthropic", "claude-haiku-4-5").prices?.input).toBe(1);
    const explained = explainModel("anthropic", "claude-sonnet-4-6", { contextWindow: 150_000 });
    expect(explained.contextWindow).toEqual({ value: 150_000, source: "config" });
    expect(explained.prices).toEqual({ value: { input: 2.5, output: 12 }, source: "models.dev cache" });
    expect(explained.catalogue).toEqual({
      layer: "models.dev cache",
      date: "2026-11-30T10:00:00.000Z",
      source: "http://127.0.0.1:1/api.json",
    });
  });

  it("R-GW-12 explainModel names the layer and the published source of a bundled row", () => {
    const explained = explainModel("anthropic", "claude-sonnet-4-5");
    expect(explained.catalogueId).toBe("claude-sonnet-4-5-20250929");
    expect(explained.catalogue?.layer).toBe("bundled snapshot");
    expect(explained.catalogue?.source).toContain("anthropic.com/pricing");
    expect(explained.maxOutputTokens).toEqual({ value: 64_000, source: "bundled snapshot" });
    expect(explainModel("openai", "gpt-4o").catalogue?.layer).toBe("pinned package");
    expect(explainModel("openai", "no-such-model").catalogue).toBeUndefined();
  });

  it("R-GW-12 cloud providers look models up under models.dev's own provider ids", () => {
    useRefreshedCatalogue({
      fetchedAt: "2026-11-30T10:00:00.000Z",
      source: "test",
      providers: {
        "amazon-bedrock": {
          models: {
            "anthropic.claude-sonnet-4-5-20250929-v1:0": { id: "anthropic.claude-sonnet-4-5-20250929-v1:0", limit: { context: 200_000 } },
          },
        },
      },
    });
    expect(catalogueFacts("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0").contextWindow).toBe(200_000);
    expect(CATALOGUE_PROVIDER_IDS["azure-openai"]).toBe("azure");
    expect(CATALOGUE_PROVIDER_IDS.vertex).toBe("google-vertex");
  });
});
