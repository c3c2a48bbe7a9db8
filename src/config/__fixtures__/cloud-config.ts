/**
 * A config with one of each cloud provider shape (R-GW-12): Azure OpenAI by resource with a deployment and by
 * base URL on the Responses wire, Vertex AI for Claude and for Gemini. Read by the config and engine tests.
 */
export const CLOUD_CONFIG = {
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
