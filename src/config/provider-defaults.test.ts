import { describe, expect, it } from "vitest";
import { parseConfig } from "./parse-config.js";
import { BUILT_IN_PROVIDERS, resolveProviderSettings } from "./provider-defaults.js";

const defaults = parseConfig({}).config;

describe("resolveProviderSettings", () => {
  const builtInTable: [id: string, api: string, baseUrl: string, cooldowns: boolean, oauth: boolean][] = [
    ["openai", "openai-chat", "https://api.openai.com/v1", true, true],
    ["anthropic", "anthropic-messages", "https://api.anthropic.com", true, true],
    ["google", "google-generative-ai", "https://generativelanguage.googleapis.com/v1beta", true, false],
    ["openrouter", "openai-chat", "https://openrouter.ai/api/v1", false, false],
    ["ollama", "ollama", "http://127.0.0.1:11434", true, false],
    ["openai-codex", "openai-responses", "https://chatgpt.com/backend-api/codex", true, true],
  ];
  it.each(builtInTable)("R-CF-3: built-in %s works with no config", (id, api, baseUrl, cooldowns, oauth) => {
    const settings = resolveProviderSettings(defaults, id);
    expect(settings).toMatchObject({ id, api, baseUrl, cooldowns, timeoutSeconds: 120, headers: {}, models: [], builtIn: true });
    expect(settings?.oauth !== undefined).toBe(oauth);
  });

  it("R-CF-3: exactly the six documented providers are built in", () => {
    expect(Object.keys(BUILT_IN_PROVIDERS).sort()).toEqual(["anthropic", "google", "ollama", "openai", "openai-codex", "openrouter"]);
  });

  it("R-CF-3: models.providers.<id> overrides built-in defaults field by field", () => {
    const { config } = parseConfig({
      models: {
        providers: {
          openrouter: { cooldowns: true, timeoutSeconds: 30, headers: { "HTTP-Referer": "https://example.com" } },
          anthropic: { oauth: { clientId: "my-client" }, baseUrl: "http://127.0.0.1:8080" },
          ollama: { models: [{ id: "qwen3.5:27b", contextWindow: 32768, supportsPrefill: true }] },
        },
      },
    });
    expect(resolveProviderSettings(config, "openrouter")).toMatchObject({
      api: "openai-chat",
      baseUrl: "https://openrouter.ai/api/v1",
      cooldowns: true,
      timeoutSeconds: 30,
      headers: { "HTTP-Referer": "https://example.com" },
    });
    expect(resolveProviderSettings(config, "anthropic")).toMatchObject({
      baseUrl: "http://127.0.0.1:8080",
      oauth: { tokenUrl: "https://console.anthropic.com/v1/oauth/token", clientId: "my-client" },
    });
    expect(resolveProviderSettings(config, "ollama")?.models).toEqual([{ id: "qwen3.5:27b", contextWindow: 32768, supportsPrefill: true }]);
  });

  it("R-CF-3: a user-defined provider resolves with the global defaults", () => {
    const { config } = parseConfig({
      models: { providers: { lmstudio: { api: "openai-chat", baseUrl: "http://127.0.0.1:1234/v1" } } },
    });
    expect(resolveProviderSettings(config, "lmstudio")).toEqual({
      id: "lmstudio",
      api: "openai-chat",
      baseUrl: "http://127.0.0.1:1234/v1",
      headers: {},
      timeoutSeconds: 120,
      cooldowns: true,
      models: [],
      builtIn: false,
    });
  });

  it("R-CF-3: an unknown provider resolves to undefined, and prototype names are not providers", () => {
    expect(resolveProviderSettings(defaults, "nobody")).toBeUndefined();
    expect(resolveProviderSettings(defaults, "constructor")).toBeUndefined();
    expect(resolveProviderSettings(defaults, "toString")).toBeUndefined();
  });

  it("R-CF-3: resolved settings are frozen", () => {
    const settings = resolveProviderSettings(defaults, "openai");
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings?.headers)).toBe(true);
  });
});
