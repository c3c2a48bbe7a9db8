/** The same-wire lane's call to a Responses API provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { joinUrl } from "../shared/http-client.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import type { WireErrorDetails } from "../shared/upstream-failure.js";
import { openAiPassThroughTarget } from "../openai/openai-pass-through.js";

export function openAiResponsesPassThroughTarget(settings: ProviderSettings, credential: Credential | undefined, stream: boolean): PassThroughTarget {
  // The same OpenAI auth, headers and error mapping as chat completions; only the path differs.
  return { ...openAiPassThroughTarget(settings, credential, stream), url: joinUrl(settings.baseUrl, "responses") };
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
