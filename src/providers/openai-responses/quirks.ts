/**
 * OpenAI Responses (`api: "openai-responses"`): OpenAI's `POST /v1/responses`, the ChatGPT/Codex backend
 * (`openai-codex`), and any server that speaks the Responses API — OpenAI's bearer auth at `…/responses`.
 */
import { bearerHeaders } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import { acceptHeader, type ProviderQuirks } from "../shared/provider-quirks.js";

export const openAiResponsesQuirks: ProviderQuirks = {
  api: "openai-responses",
  endpoint(settings) {
    const url = joinUrl(settings.baseUrl, "responses");
    return { url: () => url, headers: (credential, stream) => ({ ...bearerHeaders(credential), ...acceptHeader(stream) }) };
  },
};
