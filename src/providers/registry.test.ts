import { describe, expect, it } from "vitest";
import { ConfigError } from "../core/errors.js";
import type { ProviderApi } from "../ports/provider.js";
import { HttpProvider } from "./http-provider.js";
import { createProvider, createProviderRegistry, ProviderRegistry, UnknownProviderError } from "./registry.js";
import { simpleRequest } from "./shared/__fixtures__/canonical-requests.js";
import { startLoopbackServer } from "./shared/__fixtures__/loopback-server.js";

describe("createProvider", () => {
  it.each([
    ["openai-chat", HttpProvider],
    ["anthropic-messages", HttpProvider],
    ["google-generative-ai", HttpProvider],
    ["ollama", HttpProvider],
  ] as const)("api %s → %s", (api, expected) => {
    const provider = createProvider({ id: "x", api, baseUrl: "http://127.0.0.1:1" });
    expect(provider).toBeInstanceOf(expected);
    expect(provider.api).toBe(api);
    expect(provider.id).toBe("x");
  });

  it("the older name openai-completions builds the OpenAI chat provider under its one id, openai-chat", () => {
    const provider = createProvider({ id: "x", api: "openai-completions" as ProviderApi, baseUrl: "http://127.0.0.1:1" });
    expect(provider).toBeInstanceOf(HttpProvider);
    expect(provider.api).toBe("openai-chat");
  });

  it("an unknown api is a ConfigError naming the key", () => {
    expect(() => createProvider({ id: "weird", api: "soap" as ProviderApi, baseUrl: "http://127.0.0.1:1" })).toThrow(
      /models\.providers\.weird\.api: expected one of openai-chat/,
    );
  });

  it("a base URL that is not http(s) is a ConfigError", () => {
    expect(() => createProvider({ id: "bad", api: "ollama", baseUrl: "localhost:11434" })).toThrow(ConfigError);
  });

  it("R-GW-2: the same OpenAI wire serves OpenRouter under its own id, with its configured headers", async () => {
    const server = await startLoopbackServer(() => ({
      kind: "json",
      body: {
        id: "gen-1",
        model: "anthropic/claude-sonnet-4",
        choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      },
    }));
    try {
      const registry = createProviderRegistry({
        openrouter: { api: "openai-chat", baseUrl: `${server.url}/api/v1`, headers: { "X-Title": "Detour" }, timeoutSeconds: 5 },
      });
      const response = await registry.require("openrouter").complete(simpleRequest, {
        model: "anthropic/claude-sonnet-4",
        credential: { type: "api_key", provider: "openrouter", key: "sk-or-test-key-123456" },
        signal: new AbortController().signal,
      });
      expect(response).toMatchObject({ model: "anthropic/claude-sonnet-4", usage: { inputTokens: 3, outputTokens: 1 } });
      expect(server.requests[0]?.url).toBe("/api/v1/chat/completions");
      expect(server.requests[0]?.headers["x-title"]).toBe("Detour");
    } finally {
      await server.close();
    }
  });
});

describe("ProviderRegistry", () => {
  const registry = createProviderRegistry({
    openai: { api: "openai-chat", baseUrl: "https://api.openai.com/v1" },
    anthropic: { api: "anthropic-messages", baseUrl: "https://api.anthropic.com" },
    ollama: { api: "ollama", baseUrl: "http://127.0.0.1:11434" },
  });

  it("keys providers by id", () => {
    expect(registry.ids()).toEqual(["openai", "anthropic", "ollama"]);
    expect(registry.get("anthropic")).toBeInstanceOf(HttpProvider);
    expect(registry.has("google")).toBe(false);
    expect(registry.get("google")).toBeUndefined();
  });

  it("require() on a missing id throws a typed error that says what to configure", () => {
    const error = (() => {
      try {
        registry.require("google");
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UnknownProviderError);
    expect(error).toMatchObject({ code: "DETOUR_UNKNOWN_PROVIDER", provider: "google" });
    expect((error as Error).message).toMatch(/Add models\.providers\.google/);
  });

  it("lists every invalid entry at once", () => {
    const failure = (() => {
      try {
        createProviderRegistry({
          a: { api: "nope" as ProviderApi, baseUrl: "http://127.0.0.1:1" },
          b: { api: "ollama", baseUrl: "not a url" },
        });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).issues.map((issue) => issue.path)).toEqual(["models.providers.a.api", "models.providers.b.baseUrl"]);
  });

  it("accepts already-built providers", () => {
    const custom = new ProviderRegistry([createProvider({ id: "local", api: "ollama", baseUrl: "http://127.0.0.1:11434" })]);
    expect(custom.require("local").api).toBe("ollama");
  });
});
