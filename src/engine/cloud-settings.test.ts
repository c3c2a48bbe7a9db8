import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { providersFromConfig } from "./providers-from-config.js";

const cloudConfig = {
  models: {
    providers: {
      "azure-east": {
        api: "azure-openai",
        azure: { resource: "contoso-east", apiVersion: "2024-10-21" },
        models: [{ id: "gpt-4o", deployment: "gpt4o-prod" }],
      },
      "azure-west": { api: "azure-openai", baseUrl: "https://contoso-west.openai.azure.com", azure: { wire: "openai-responses" } },
      vertex: { api: "vertex", vertex: { project: "acme-ai", location: "us-east5", publisher: "anthropic" } },
      "vertex-gemini": { api: "vertex", vertex: { project: "acme-ai", location: "global" } },
    },
  },
};

describe("cloud providers from config", () => {
  it("R-GW-12: each cloud entry becomes a provider speaking its wire format, with its deployments", () => {
    const { config } = parseConfig(cloudConfig);
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
