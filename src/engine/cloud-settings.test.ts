import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { CLOUD_CONFIG } from "../config/__fixtures__/cloud-config.js";
import { providersFromConfig } from "./providers-from-config.js";

describe("cloud providers from config", () => {
  it("R-GW-12: each cloud entry becomes a provider speaking its wire format, with its deployments", () => {
    const { config } = parseConfig(CLOUD_CONFIG);
    const providers = new Map(providersFromConfig(config).map((provider) => [provider.id, provider]));
    expect(providers.get("azure-east")?.api).toBe("azure-openai");
    expect((providers.get("azure-east") as unknown as { wire: { id: string } }).wire.id).toBe("openai-chat");
    expect((providers.get("azure-west") as unknown as { wire: { id: string } }).wire.id).toBe("openai-responses");
    expect((providers.get("vertex") as unknown as { wire: { id: string } }).wire.id).toBe("anthropic-messages");
    expect((providers.get("vertex-gemini") as unknown as { wire: { id: string } }).wire.id).toBe("google-generative-ai");
    expect((providers.get("azure-east") as unknown as { cloudSettings: unknown }).cloudSettings).toEqual({
      azure: { apiVersion: "2024-10-21", deployments: { "gpt-4o": "gpt4o-prod" } },
    });
  });
});
