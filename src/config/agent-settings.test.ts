import { describe, expect, it } from "vitest";
import { agentSettings, modelAliases, modelDeclaration, sameEmbeddingSpace } from "./agent-settings.js";
import { parseConfig } from "./parse-config.js";

const { config } = parseConfig({
  agents: {
    defaults: {
      model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-4o"] },
      models: {
        "anthropic/claude-opus-4-6": { alias: "opus" },
        "openai/gpt-4o-mini": { alias: "mini" },
        "openai/gpt-4o": {},
      },
      heartbeat: { model: "openai/gpt-4o-mini" },
    },
    list: [
      { id: "main" },
      { id: "work", model: "opus", heartbeat: { model: "google/gemini-2.5-flash" } },
      { id: "ops", model: { primary: "openai/gpt-4o", fallbacks: ["mini"] } },
      { id: "strict", model: { primary: "openai/gpt-4o" } },
    ],
  },
  models: {
    providers: {
      ollama: { models: [{ id: "qwen3.5:27b", contextWindow: 32768, maxTokens: 4096, supportsPrefill: true }] },
    },
  },
});

describe("agentSettings", () => {
  it("R-CF-3: a listed agent without a model uses the defaults (model undefined)", () => {
    expect(agentSettings(config, "main")).toEqual({ id: "main", heartbeatModel: "openai/gpt-4o-mini", listed: true });
  });

  it("R-CF-3: a string model becomes { primary } and the agent's heartbeat model wins", () => {
    expect(agentSettings(config, "work")).toEqual({
      id: "work",
      model: { primary: "opus" },
      heartbeatModel: "google/gemini-2.5-flash",
      listed: true,
    });
  });

  it("R-CF-3: an object model keeps fallbacks only when the agent states them", () => {
    expect(agentSettings(config, "ops").model).toEqual({ primary: "openai/gpt-4o", fallbacks: ["mini"] });
    expect(agentSettings(config, "strict").model).toEqual({ primary: "openai/gpt-4o" });
    expect(agentSettings(config, "strict").model).not.toHaveProperty("fallbacks");
  });

  it("R-CF-3: an agent missing from agents.list gets the defaults and listed=false; the default id is main", () => {
    expect(agentSettings(config, "ghost")).toEqual({ id: "ghost", heartbeatModel: "openai/gpt-4o-mini", listed: false });
    expect(agentSettings(config).id).toBe("main");
    expect(agentSettings(parseConfig({}).config)).toEqual({ id: "main", listed: false });
  });
});

describe("modelAliases", () => {
  it("R-CF-3: maps each alias of agents.defaults.models to its provider/model", () => {
    expect(modelAliases(config)).toEqual({ opus: "anthropic/claude-opus-4-6", mini: "openai/gpt-4o-mini" });
    expect(modelAliases(parseConfig({}).config)).toEqual({});
  });
});

describe("modelDeclaration", () => {
  it("R-CF-3: returns what models.providers.<id>.models declares, or nothing", () => {
    expect(modelDeclaration(config, "ollama", "qwen3.5:27b")).toEqual({
      contextWindow: 32768,
      maxTokens: 4096,
      supportsPrefill: true,
    });
    expect(modelDeclaration(config, "ollama", "llama3")).toEqual({});
    expect(modelDeclaration(config, "openai", "gpt-4o")).toEqual({});
    expect(modelDeclaration(config, "__proto__", "x")).toEqual({});
  });
});

describe("sameEmbeddingSpace and declared prices", () => {
  const { config: spaces } = parseConfig({
    models: {
      providers: {
        openai: {
          models: [
            { id: "te3-small", embeddingSpace: "te3s", cost: { input: 0.02 } },
            { id: "te3-large", embeddingSpace: "te3l" },
          ],
        },
        router: {
          api: "openai-chat",
          baseUrl: "http://127.0.0.1:9/v1",
          models: [{ id: "openai/te3-small", embeddingSpace: "te3s" }, { id: "chat" }],
        },
      },
    },
  });

  it("lists the other configured models of the same space, in config order, and none for a model without one", () => {
    expect(sameEmbeddingSpace(spaces, "openai", "te3-small")).toEqual(["router/openai/te3-small"]);
    expect(sameEmbeddingSpace(spaces, "router", "openai/te3-small")).toEqual(["openai/te3-small"]);
    expect(sameEmbeddingSpace(spaces, "openai", "te3-large")).toEqual([]);
    expect(sameEmbeddingSpace(spaces, "router", "chat")).toEqual([]);
  });

  it("R-GW-7: a declared cost becomes the model's prices, output defaulting to 0", () => {
    expect(modelDeclaration(spaces, "openai", "te3-small")).toMatchObject({ prices: { input: 0.02, output: 0 }, embeddingSpace: "te3s" });
  });

  it("rejects a space name with spaces and a negative price", () => {
    expect(() => parseConfig({ models: { providers: { openai: { models: [{ id: "m", embeddingSpace: "two words" }] } } } })).toThrow(
      /embeddingSpace/,
    );
    expect(() => parseConfig({ models: { providers: { openai: { models: [{ id: "m", cost: { input: -1 } }] } } } })).toThrow(/cost\.input/);
  });
});
