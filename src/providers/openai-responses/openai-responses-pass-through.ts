/** The same-wire lane's call to a Responses API provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { joinUrl } from "../shared/http-client.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { openAiPassThroughTarget } from "../openai/openai-pass-through.js";

export function openAiResponsesPassThroughTarget(settings: ProviderSettings, credential: Credential | undefined, stream: boolean): PassThroughTarget {
  // The same OpenAI auth, headers and error mapping as chat completions; only the path differs.
  return { ...openAiPassThroughTarget(settings, credential, stream), url: joinUrl(settings.baseUrl, "responses") };
}
