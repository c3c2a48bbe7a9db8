/**
 * Where an embeddings or token-count call goes, per provider API (one HTTP request per attempt, R-RA-1): the
 * OpenAI-compatible `embeddings` path, Ollama's `/api/embed`, Anthropic's `messages/count_tokens`, each with
 * its provider's auth and error mapper so failures classify exactly as chat failures do.
 */
import type { Credential } from "../../core/types.js";
import { anthropicPassThroughTarget, type AnthropicClientHeaders } from "../anthropic/anthropic-pass-through.js";
import { describeOllamaError } from "../../wire/ollama/read-error.js";
import { ollamaEndpoint } from "../ollama/quirks.js";
import { openAiPassThroughTarget } from "../openai/openai-pass-through.js";
import { joinUrl } from "./http-client.js";
import type { PassThroughTarget } from "./pass-through-call.js";
import type { ProviderSettings } from "./provider-settings.js";

export function openAiEmbeddingsTarget(settings: ProviderSettings, credential: Credential | undefined): PassThroughTarget {
  return { ...openAiPassThroughTarget(settings, credential, false), url: joinUrl(settings.baseUrl, "embeddings") };
}

export function ollamaEmbedTarget(settings: ProviderSettings, credential: Credential | undefined): PassThroughTarget {
  // Same auth and headers as Ollama chat (keyless unless a proxy in front wants a bearer token).
  const openAi = openAiPassThroughTarget(settings, credential, false);
  return { ...openAi, url: ollamaEndpoint(settings.baseUrl, "api/embed"), describeError: describeOllamaError };
}

export function anthropicCountTokensTarget(
  settings: ProviderSettings,
  credential: Credential | undefined,
  client: AnthropicClientHeaders,
): PassThroughTarget {
  const messages = anthropicPassThroughTarget(settings, credential, false, client);
  return { ...messages, url: `${messages.url}/count_tokens` };
}
