import { describe, expect, it } from "vitest";
import { ConfigError } from "../core/errors.js";
import { parseConfig } from "./parse-config.js";
import { resolveProviderSettings } from "./provider-defaults.js";

describe("providers on APIs Detour does not speak", () => {
  it("R-CF-1: an OpenClaw provider on an unsupported api loads with a warning and is left out", () => {
    const { config, warnings } = parseConfig({
      models: {
        providers: {
          openai: { api: "openai-responses", baseUrl: "https://api.openai.com/v1" },
          bedrock: { api: "bedrock-converse-stream", baseUrl: "https://bedrock.example" },
          local: { api: "ollama", baseUrl: "http://127.0.0.1:11434" },
        },
      },
    });
    expect(warnings.filter((warning) => warning.includes("does not speak"))).toHaveLength(2);
    expect(warnings.join("\n")).toContain('models.providers.openai.api: Detour does not speak "openai-responses"');
    expect(Object.keys(config.models.providers)).toEqual(["local"]);
    // The built-in openai provider keeps its own defaults.
    expect(resolveProviderSettings(config, "openai")?.api).toBe("openai-completions");
  });

  it("R-CF-2: a non-string api is still an error naming its path", () => {
    expect(() => parseConfig({ models: { providers: { local: { api: 42, baseUrl: "http://127.0.0.1:1" } } } })).toThrow(
      ConfigError,
    );
  });
});
