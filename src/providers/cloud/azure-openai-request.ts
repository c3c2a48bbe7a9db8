/**
 * Azure OpenAI addresses and auth headers. Chat and embeddings name the deployment in the path; the
 * Responses API names it in the body's `model`. Every call carries `api-version`.
 */

/** The current generally-available data-plane version; the Responses API needs a preview version. */
export const AZURE_OPENAI_DEFAULT_API_VERSION = "2024-10-21";

export type AzureOpenAiOperation = "chat/completions" | "embeddings" | "responses";

/** `my-resource` → `https://my-resource.openai.azure.com`; a full endpoint URL is kept as given. */
export function azureOpenAiEndpoint(resourceOrEndpoint: string): string {
  const value = resourceOrEndpoint.trim().replace(/\/+$/, "");
  return /^https?:\/\//i.test(value) ? value : `https://${value}.openai.azure.com`;
}

export function azureOpenAiUrl(input: {
  endpoint: string;
  operation: AzureOpenAiOperation;
  /** Required for chat and embeddings; the Responses API takes it as the body's `model` instead. */
  deployment?: string;
  apiVersion?: string;
}): string {
  const endpoint = azureOpenAiEndpoint(input.endpoint);
  const query = `api-version=${encodeURIComponent(input.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION)}`;
  if (input.operation === "responses") return `${endpoint}/openai/responses?${query}`;
  if (!input.deployment) throw new TypeError(`an Azure OpenAI ${input.operation} call needs a deployment name`);
  return `${endpoint}/openai/deployments/${encodeURIComponent(input.deployment)}/${input.operation}?${query}`;
}

export type AzureOpenAiAuth = { kind: "api-key"; apiKey: string } | { kind: "entra"; accessToken: string };

/** An API key goes in `api-key`; a Microsoft Entra token goes in `Authorization: Bearer`, never both. */
export function azureOpenAiAuthHeaders(auth: AzureOpenAiAuth): Record<string, string> {
  return auth.kind === "api-key" ? { "api-key": auth.apiKey } : { authorization: `Bearer ${auth.accessToken}` };
}
