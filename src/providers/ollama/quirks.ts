/** Ollama native (`api: "ollama"`): `/api/chat`, keyless by default. */
import { bearerHeaders } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import { acceptHeader, type ProviderQuirks } from "../shared/provider-quirks.js";

/** Users often configure Ollama's OpenAI-compatible URL (`…/v1`); the native API lives beside it. */
export function ollamaEndpoint(baseUrl: string, path: string): string {
  return joinUrl(baseUrl.replace(/\/+$/, "").replace(/\/(v1|api)$/, ""), path);
}

export const ollamaQuirks: ProviderQuirks = {
  api: "ollama",
  endpoint(settings) {
    const url = ollamaEndpoint(settings.baseUrl, "api/chat");
    return {
      url: () => url,
      // Keyless unless a credential is configured (Ollama behind an authenticating proxy, or ollama.com).
      headers: (credential, stream) => ({ ...bearerHeaders(credential), ...acceptHeader(stream, "application/x-ndjson") }),
    };
  },
};
