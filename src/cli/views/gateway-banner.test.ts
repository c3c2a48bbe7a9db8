/**
 * The start-up banner of `detour gateway`: config file, each agent's chain, the store, the dashboard URL, what
 * discovery found, and — when no chain is configured — exactly what to write.
 */
import { describe, expect, it } from "vitest";
import { catalogueModelIds } from "../../catalogue/model-catalogue.js";
import { parseConfig } from "../../config/index.js";
import type { CredentialDiscovery } from "../../engine/discover-credentials.js";
import { describeAllowedClients } from "../../gateway/request-guard.js";
import { gatewayBanner, STARTER_MODELS } from "./gateway-banner.js";

const URL = "http://127.0.0.1:4141";

function banner(raw: unknown, discovery: CredentialDiscovery = { kind: "configured" }, configFile?: string): string {
  const { config } = parseConfig(raw, "test");
  return gatewayBanner({
    url: URL,
    config,
    ...(configFile !== undefined ? { configFile } : {}),
    detourHome: "/srv/detour",
    discovery,
    cronJobs: [],
  }).join("\n");
}

const discovered = (...providers: string[]): CredentialDiscovery => ({
  kind: "discovered",
  envProfiles: providers.map((provider) => ({
    profileId: `${provider}:env`,
    provider,
    variable: `${provider.toUpperCase()}_API_KEY`,
  })),
});

describe("the gateway's start-up banner", () => {
  it("names the config file, the store, the dashboard and each agent's chain", () => {
    const text = banner(
      {
        agents: {
          defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } },
          list: [
            { id: "coder", model: "anthropic/claude-sonnet-4-6" },
            { id: "writer", model: { primary: "openai/gpt-5", fallbacks: ["google/gemini-2.5-pro"] } },
            { id: "helper" },
          ],
        },
      },
      { kind: "configured" },
      "/etc/detour/detour.json5",
    );
    expect(text).toContain(`Dashboard:         ${URL}/`);
    expect(text).toContain("Config file:       /etc/detour/detour.json5");
    expect(text).toContain("Store:             SQLite, one file per agent: /srv/detour/agents/main/agent/detour-agent.sqlite");
    expect(text).toContain("Agent main:        openai/gpt-5 → anthropic/claude-sonnet-4-6");
    expect(text).toContain("Agent coder:       anthropic/claude-sonnet-4-6 (no fallback)");
    expect(text).toContain("Agent writer:      openai/gpt-5 → google/gemini-2.5-pro");
    expect(text).toContain("Agent helper:      openai/gpt-5 → anthropic/claude-sonnet-4-6");
    expect(text).not.toContain("No model chain");
  });

  it("R-GW-13 says which hosts and browser origins the gateway answers, and the keys that allow more", () => {
    const { config } = parseConfig({ gateway: { allowedHosts: ["detour.example.com"] } }, "test");
    const text = gatewayBanner({
      url: URL,
      config,
      detourHome: "/srv/detour",
      discovery: { kind: "configured" },
      cronJobs: [],
      allowed: describeAllowedClients(config.gateway, 4141),
    }).join("\n");
    expect(text).toMatch(/Answers hosts: +localhost, \*\.localhost, 127\.0\.0\.1, \[::1\] on port 4141; detour\.example\.com/);
    expect(text).toMatch(/Browser origins: +http:\/\/127\.0\.0\.1:4141, .*gateway\.allowedOrigins/);
  });

  it("says when no config file was found, and names a Redis store without its password", () => {
    const text = banner({ state: { backend: "redis", redis: { url: "redis://:hunter2@redis.internal:6379", keyPrefix: "team" } } });
    expect(text).toContain("Config file:       none found");
    expect(text).toContain('Store:             Redis redis://redis.internal:6379 (key prefix "team")');
    expect(text).not.toContain("hunter2");
    expect(banner({ state: { backend: "memory" } })).toContain("Store:             in memory");
  });

  it("with no chain, says exactly what to write, built from the providers whose keys it found", () => {
    const onlyOpenAI = banner({}, discovered("openai"));
    expect(onlyOpenAI).toContain("Credential:        openai:env from $OPENAI_API_KEY");
    expect(onlyOpenAI).toContain('"model": "detour" has nothing to run');
    expect(onlyOpenAI).toContain('agents: { defaults: { model: { primary: "openai/gpt-5" } } }');
    const two = banner({}, discovered("anthropic", "openai"));
    expect(two).toContain('agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-5"] } } }');
    const ollama = banner({}, { kind: "discovered", envProfiles: [], ollama: { baseUrl: "http://127.0.0.1:11434", models: ["llama3.2"] } });
    expect(ollama).toContain('primary: "ollama/llama3.2"');
  });

  it("suggests only models the catalogue knows", () => {
    for (const [provider, ref] of Object.entries(STARTER_MODELS)) {
      expect(ref.startsWith(`${provider}/`)).toBe(true);
      expect(catalogueModelIds(provider)).toContain(ref.slice(provider.length + 1));
    }
  });
});
