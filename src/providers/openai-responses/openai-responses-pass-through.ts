/** The same-wire lane's call to a Responses API provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { joinUrl } from "../shared/http-client.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import type { WireErrorDetails } from "../shared/upstream-failure.js";
import { withBodyResets } from "../shared/body-reset-hints.js";
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
  const details: WireErrorDetails = {
    message: typeof message === "string" && message !== "" ? message : JSON.stringify(raw),
    ...(typeof code === "string" ? { code } : {}),
  };
  // R-EC-6: a usage limit stated in the stream's `error` event (`resets_at`, `resets_in_seconds`).
  return withBodyResets(details, raw);
}
