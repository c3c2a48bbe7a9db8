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
    expect(warnings.filter((warning) => warning.includes("does not speak"))).toHaveLength(2);
    expect(warnings.join("\n")).toContain('models.providers.openai.api: Detour does not speak "github-copilot"');
    expect(Object.keys(config.models.providers)).toEqual(["local", "codex"]);
    // The built-in openai provider keeps its own defaults.
    expect(resolveProviderSettings(config, "openai")?.api).toBe("openai-chat");
  });

  it("R-CF-2: a non-string api is still an error naming its path", () => {
    expect(() => parseConfig({ models: { providers: { local: { api: 42, baseUrl: "http://127.0.0.1:1" } } } })).toThrow(ConfigError);
  });
});
