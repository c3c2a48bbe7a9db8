/** Settings every provider is constructed with (from `models.providers.<id>`, R-CF-3). */
import type { Dispatcher } from "undici";
import type { MalformedChunk, ProviderApi } from "../../ports/provider.js";

export interface ProviderSettings {
  /** Provider id as configured (`openai`, `openrouter`, `my-vllm`, …). */
  id: string;
  api: ProviderApi;
  baseUrl: string;
  /** Extra headers sent with every request (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Readonly<Record<string, string>>;
  /** Bounds one non-streamed attempt; for streams, the wait for headers and each gap between chunks. */
  timeoutSeconds?: number;
  /** Injected connection pool; defaults to the shared undici Agent. */
  dispatcher?: Dispatcher;
  /** Called for every skipped malformed stream chunk, in addition to the call context's callback. */
  onMalformedChunk?: (chunk: MalformedChunk) => void;
  /** Id for tool calls whose wire format has none (Gemini, Ollama). Defaults to a random `call_…` id. */
  createToolCallId?: () => string;
  /** AWS region of a Bedrock provider; absent: the base URL's, then AWS_REGION. */
  region?: string;
  /** Named profile of the AWS shared credentials file, for a Bedrock provider whose Detour profiles hold no keys. */
  awsProfile?: string;
  /** Id for responses whose wire format has none. Defaults to a random id. */
  createResponseId?: () => string;
  /** `api: "azure-openai"` only. */
  azure?: AzureOpenAiSettings;
  /** `api: "vertex"` only. */
  vertex?: VertexSettings;
}

export interface AzureOpenAiSettings {
  apiVersion?: string;
  /** Chat Completions (default) or Responses. */
  wire?: "openai-chat" | "openai-responses";
  /** Model id → deployment name; a model without one is its own deployment name. */
  deployments?: Readonly<Record<string, string>>;
  /** Microsoft Entra ID tokens instead of `api-key`. */
  entra?: { tenantId?: string; clientId?: string; clientSecretEnv?: string; scope?: string };
}

export interface VertexSettings {
  project: string;
  location: string;
  publisher: "google" | "anthropic";
  keyFile?: string;
  tokenUrl?: string;
}
