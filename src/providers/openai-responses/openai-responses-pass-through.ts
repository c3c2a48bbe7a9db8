/** The same-wire lane's call to a Responses API provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { bearerHeaders, credentialSecret } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import type { WireErrorDetails } from "../shared/upstream-failure.js";
import { timeoutMsOf } from "../shared/wire-call.js";
import { describeOpenAiError } from "../openai/map-openai-error.js";

export function openAiResponsesPassThroughTarget(settings: ProviderSettings, credential: Credential | undefined, stream: boolean): PassThroughTarget {
  return {
    provider: settings.id,
    url: joinUrl(settings.baseUrl, "responses"),
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

/** What the Responses stream scanner reports for an `error` event or the `error` of `response.failed`. */
export function describeResponsesStreamError(raw: unknown): WireErrorDetails {
  if (typeof raw === "string") return { message: raw };
  if (typeof raw !== "object" || raw === null) return { message: "The response failed." };
  const { message, code } = raw as { message?: unknown; code?: unknown };
  return {
    message: typeof message === "string" && message !== "" ? message : JSON.stringify(raw),
    ...(typeof code === "string" ? { code } : {}),
  };
}
