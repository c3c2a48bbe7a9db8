import { describe, expect, it } from "vitest";
import { ConfigError } from "../core/errors.js";
import { parseConfig } from "./parse-config.js";
import { resolveProviderSettings } from "./provider-defaults.js";

describe("providers on APIs Detour does not speak", () => {
  it("R-CF-1: an OpenClaw provider on an unsupported api loads with a warning and is left out", () => {
    const { config, warnings } = parseConfig({
      models: {
        providers: {
          openai: { api: "github-copilot", baseUrl: "https://api.openai.com/v1" },
          bedrock: { api: "bedrock-converse-stream", baseUrl: "https://bedrock.example" },
          local: { api: "ollama", baseUrl: "http://127.0.0.1:11434" },
          // Spoken since the Responses API provider exists: an OpenClaw entry on it now loads as it is.
          codex: { api: "openai-responses", baseUrl: "https://chatgpt.com/backend-api/codex" },
        },
      },
    });
    expect(warnings.filter((warning) => warning.includes("does not speak"))).toHaveLength(1);
    expect(warnings.join("\n")).toContain('models.providers.openai.api: Detour does not speak "github-copilot"');
    // Spoken since the Bedrock provider exists: OpenClaw's name for it loads as api "bedrock".
    expect(Object.keys(config.models.providers)).toEqual(["bedrock", "local", "codex"]);
    // The built-in openai provider keeps its own defaults.
    expect(resolveProviderSettings(config, "openai")?.api).toBe("openai-chat");
  });

  it("R-GW-12: an OpenClaw Bedrock entry loads as a Bedrock provider whose region is its runtime URL's", () => {
    const { config, warnings } = parseConfig({
      models: {
        providers: {
          "amazon-bedrock": {
            api: "bedrock-converse-stream",
            baseUrl: "https://bedrock-runtime.us-west-2.amazonaws.com",
            models: [{ id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", contextWindow: 200000, maxTokens: 64000 }],
          },
          "bedrock-eu": { api: "bedrock", region: "eu-central-1" },
        },
      },
    });
    expect(warnings.filter((warning) => warning.includes("does not speak"))).toEqual([]);
    expect(resolveProviderSettings(config, "amazon-bedrock")).toMatchObject({
      api: "bedrock",
      baseUrl: "https://bedrock-runtime.us-west-2.amazonaws.com",
    });
    // A region alone is enough: the base URL is that region's runtime endpoint.
    expect(resolveProviderSettings(config, "bedrock-eu")).toMatchObject({
      api: "bedrock",
      region: "eu-central-1",
      baseUrl: "https://bedrock-runtime.eu-central-1.amazonaws.com",
    });
  });

  it("R-CF-2: a non-string api is still an error naming its path", () => {
    expect(() => parseConfig({ models: { providers: { local: { api: 42, baseUrl: "http://127.0.0.1:1" } } } })).toThrow(ConfigError);
  });
});
