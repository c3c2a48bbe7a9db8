/** The same-wire lane's call to an OpenAI-compatible provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { bearerHeaders, credentialSecret } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import type { WireErrorDetails } from "../shared/upstream-failure.js";
import { timeoutMsOf } from "../shared/wire-call.js";
import { validateWire } from "../../wire/shared/wire-json.js";
import { describeOpenAiError, describeOpenAiErrorObject } from "./map-openai-error.js";
import { openAiErrorObjectSchema } from "../../wire/openai-chat/schemas.js";

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

/** The `error` member of an in-band error chunk (OpenRouter and many compatible servers). */
export function describeOpenAiStreamError(raw: unknown): WireErrorDetails {
  if (typeof raw === "string") return { message: raw };
  const error = validateWire(raw, openAiErrorObjectSchema);
  return error.ok ? describeOpenAiErrorObject(error.value) : { message: JSON.stringify(raw) };
}
