import { describe, expect, it } from "vitest";
import { toJsonSchema } from "./json-schema.js";
import { parseConfig } from "./parse-config.js";
import { resolveProviderSettings } from "./provider-defaults.js";
import { CLOUD_CONFIG } from "./__fixtures__/cloud-config.js";
import { configIssues } from "./__fixtures__/config-issues.js";

describe("cloud provider config (azure-openai, vertex)", () => {
  it("R-GW-12: config check accepts api azure-openai and vertex, deriving each cloud's endpoint when no baseUrl is given", () => {
    const { config, warnings } = parseConfig(CLOUD_CONFIG);
    expect(warnings).toEqual([]);
    expect(resolveProviderSettings(config, "azure-east")).toMatchObject({
      api: "azure-openai",
      baseUrl: "https://contoso-east.openai.azure.com",
      azure: { resource: "contoso-east", apiVersion: "2024-10-21" },
    });
    expect(resolveProviderSettings(config, "azure-west")?.baseUrl).toBe("https://contoso-west.openai.azure.com");
    expect(resolveProviderSettings(config, "vertex")).toMatchObject({
      api: "vertex",
      baseUrl: "https://us-east5-aiplatform.googleapis.com/v1",
      vertex: { project: "acme-ai", location: "us-east5", publisher: "anthropic" },
    });
    expect(resolveProviderSettings(config, "vertex-gemini")).toMatchObject({
      baseUrl: "https://aiplatform.googleapis.com/v1",
      vertex: { publisher: "google" },
    });
  });

  it("R-GW-12: an Azure entry needs a resource or a baseUrl, and a Vertex entry its project and location", () => {
    expect(configIssues({ models: { providers: { az: { api: "azure-openai" } } } })).toEqual([
      'models.providers.az.baseUrl: required for "az", which has no built-in defaults',
    ]);
    expect(configIssues({ models: { providers: { vx: { api: "vertex" } } } })).toEqual([
      'models.providers.vx.vertex: required for "vx" (api "vertex"): set vertex.project and vertex.location',
    ]);
    expect(configIssues({ models: { providers: { vx: { api: "vertex", vertex: { project: "p", location: "US East" } } } } })).toEqual([
      'models.providers.vx.vertex.location: expected a Vertex location such as "us-east5" or "global"',
    ]);
  });

  it("R-GW-12: the JSON Schema export describes the cloud settings", () => {
    const text = JSON.stringify(toJsonSchema());
    for (const word of ["azure-openai", "vertex", "apiVersion", "clientSecretEnv", "publisher", "tokenUrl", "deployment"]) {
      expect(text).toContain(word);
    }
  });
});
