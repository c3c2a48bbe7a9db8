import { describe, expect, it } from "vitest";
import { AZURE_OPENAI_DEFAULT_API_VERSION, azureOpenAiAuthHeaders, azureOpenAiEndpoint, azureOpenAiUrl } from "./azure-openai-request.js";

describe("Azure OpenAI requests", () => {
  it.each([
    [
      "chat/completions",
      "gpt-5-eastus",
      "https://contoso.openai.azure.com/openai/deployments/gpt-5-eastus/chat/completions?api-version=2024-10-21",
    ],
    ["embeddings", "text-emb 3", "https://contoso.openai.azure.com/openai/deployments/text-emb%203/embeddings?api-version=2024-10-21"],
  ] as const)("R-GW-12 the %s URL names the deployment in the path and carries api-version", (operation, deployment, expected) => {
    expect(azureOpenAiUrl({ endpoint: "contoso", operation, deployment })).toBe(expected);
    expect(AZURE_OPENAI_DEFAULT_API_VERSION).toBe("2024-10-21");
  });

  it("R-GW-12 the Responses URL has no deployment segment and honours a chosen api-version", () => {
    expect(
      azureOpenAiUrl({ endpoint: "https://contoso-sweden.openai.azure.com/", operation: "responses", apiVersion: "2025-04-01-preview" }),
    ).toBe("https://contoso-sweden.openai.azure.com/openai/responses?api-version=2025-04-01-preview");
  });

  it("R-GW-12 a chat call without a deployment is refused", () => {
    expect(() => azureOpenAiUrl({ endpoint: "contoso", operation: "chat/completions" })).toThrow(/deployment/);
  });

  it("R-GW-12 a resource name becomes the openai.azure.com host; a loopback endpoint is kept", () => {
    expect(azureOpenAiEndpoint("contoso")).toBe("https://contoso.openai.azure.com");
    expect(azureOpenAiEndpoint("http://127.0.0.1:4000/")).toBe("http://127.0.0.1:4000");
  });

  it("R-GW-12 an API key goes in api-key and an Entra token in a bearer Authorization, never both", () => {
    expect(azureOpenAiAuthHeaders({ kind: "api-key", apiKey: "k-123" })).toEqual({ "api-key": "k-123" });
    expect(azureOpenAiAuthHeaders({ kind: "entra", accessToken: "eyJ.t" })).toEqual({ authorization: "Bearer eyJ.t" });
  });
});
