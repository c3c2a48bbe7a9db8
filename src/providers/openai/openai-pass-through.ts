/** The same-wire lane's call to an OpenAI-compatible provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { bearerHeaders, credentialSecret } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { timeoutMsOf } from "../shared/wire-call.js";
import { describeOpenAiError } from "../../wire/openai-chat/read-error.js";

export function openAiPassThroughTarget(
  settings: ProviderSettings,
  credential: Credential | undefined,
  stream: boolean,
): PassThroughTarget {
  return {
    provider: settings.id,
    url: joinUrl(settings.baseUrl, "chat/completions"),
    headers: {
      ...(settings.headers ?? {}),
      ...bearerHeaders(credential),
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
    },
    timeoutMs: timeoutMsOf(settings),
    ...(settings.dispatcher ? { dispatcher: settings.dispatcher } : {}),
    describeError: describeOpenAiError,
    secrets: [credentialSecret(credential)],
  };
}
