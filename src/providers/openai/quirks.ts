/**
 * OpenAI Chat Completions (`api: "openai-chat"`): OpenAI itself, OpenRouter, and any OpenAI-compatible base
 * URL (vLLM, LM Studio, Ollama's /v1, Codex-compatible proxies) — bearer auth at `…/chat/completions`.
 */
import { bearerHeaders } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import { acceptHeader, type ProviderQuirks } from "../shared/provider-quirks.js";

export const openAiQuirks: ProviderQuirks = {
  api: "openai-chat",
  endpoint(settings) {
    // Fixed per provider: built once, not on every call.
    const url = joinUrl(settings.baseUrl, "chat/completions");
    return { url: () => url, headers: (credential, stream) => ({ ...bearerHeaders(credential), ...acceptHeader(stream) }) };
  },
};
