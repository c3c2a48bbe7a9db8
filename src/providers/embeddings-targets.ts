/**
 * Where an embeddings or token-count call goes, per provider API (one HTTP request per attempt, R-RA-1): the
 * OpenAI-compatible `embeddings` path, Ollama's `/api/embed`, Anthropic's `messages/count_tokens`, each with
 * its provider's auth and error mapper so failures classify exactly as chat failures do.
 */
import type { Credential } from "../core/types.js";
import { anthropicMessagesUrl, anthropicQuirks, type AnthropicClientHeaders } from "./anthropic/quirks.js";
import { azureOpenAiOperationUrl, azureOpenAiQuirks } from "./azure-openai/quirks.js";
import { anthropicMessagesWire } from "../wire/anthropic-messages/format.js";
import { ollamaWire } from "../wire/ollama/format.js";
import { openAIChatWire } from "../wire/openai-chat/format.js";
import type { WireFormat } from "../wire/wire-format.js";
import { ollamaEndpoint, ollamaQuirks } from "./ollama/quirks.js";
import { openAiQuirks } from "./openai/quirks.js";
import { joinUrl } from "./shared/http-client.js";
import type { PassThroughTarget } from "./shared/pass-through-call.js";
import { passThroughTargetOf, type ProviderQuirks } from "./shared/provider-quirks.js";
import type { ProviderSettings } from "./shared/provider-settings.js";

/**
 * One whole (never streamed) JSON call to `url`: the provider API's endpoint for auth and headers, its wire
 * format's error reader for failures.
 */
function wholeCallTarget(
  settings: ProviderSettings,
  api: { quirks: ProviderQuirks; wire: Pick<WireFormat, "errors"> },
  call: { url: string; credential: Credential | undefined; client?: Readonly<Record<string, string>> },
): PassThroughTarget {
  return passThroughTargetOf(settings, api.quirks.endpoint(settings), api.wire.errors.read, { ...call, stream: false });
}

export function openAiEmbeddingsTarget(settings: ProviderSettings, credential: Credential | undefined): PassThroughTarget {
  const url = joinUrl(settings.baseUrl, "embeddings");
  return wholeCallTarget(settings, { quirks: openAiQuirks, wire: openAIChatWire }, { url, credential });
}

/** Azure OpenAI embeddings: the model's deployment's `embeddings` URL, with the provider's key or Entra token. */
export function azureOpenAiEmbeddingsTarget(
  settings: ProviderSettings,
  credential: Credential | undefined,
  model: string,
): PassThroughTarget {
  const url = azureOpenAiOperationUrl(settings, "embeddings", model);
  return wholeCallTarget(settings, { quirks: azureOpenAiQuirks, wire: openAIChatWire }, { url, credential });
}

export function ollamaEmbedTarget(settings: ProviderSettings, credential: Credential | undefined): PassThroughTarget {
  // Same auth and headers as Ollama chat (keyless unless a proxy in front wants a bearer token).
  const url = ollamaEndpoint(settings.baseUrl, "api/embed");
  return wholeCallTarget(settings, { quirks: ollamaQuirks, wire: ollamaWire }, { url, credential });
}

export function anthropicCountTokensTarget(
  settings: ProviderSettings,
  credential: Credential | undefined,
  client: AnthropicClientHeaders,
): PassThroughTarget {
  const url = `${anthropicMessagesUrl(settings.baseUrl)}/count_tokens`;
  return wholeCallTarget(settings, { quirks: anthropicQuirks, wire: anthropicMessagesWire }, { url, credential, client: { ...client } });
}
