import { describe, expect, it } from "vitest";
import { agentSettings, modelAliases, modelDeclaration } from "./agent-settings.js";
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
