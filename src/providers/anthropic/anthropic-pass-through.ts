/** The same-wire lane's call to an Anthropic Messages provider (SPEC R-GW-6): URL, auth and error mapping. */
import type { Credential } from "../../core/types.js";
import { credentialSecret } from "../shared/credentials.js";
import type { PassThroughTarget } from "../shared/pass-through-call.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { timeoutMsOf } from "../shared/wire-call.js";
import { anthropicAuthHeaders, anthropicMessagesUrl } from "./anthropic-provider.js";
import { describeAnthropicError } from "../../wire/anthropic-messages/read-error.js";
import { ANTHROPIC_VERSION } from "../../wire/anthropic-messages/schemas.js";

/** What the client sent that selects Anthropic API behaviour; forwarded so the body keeps its meaning. */
export interface AnthropicClientHeaders {
  "anthropic-version"?: string;
  "anthropic-beta"?: string;
}

function mergedBeta(client: string | undefined, auth: string | undefined): string | undefined {
  if (client === undefined) return auth;
  if (auth === undefined) return client;
  const flags = new Set([...client.split(","), ...auth.split(",")].map((flag) => flag.trim()).filter((flag) => flag !== ""));
  return [...flags].join(",");
}

export function anthropicPassThroughTarget(
  settings: ProviderSettings,
  credential: Credential | undefined,
  stream: boolean,
  client: AnthropicClientHeaders = {},
): PassThroughTarget {
  const auth = anthropicAuthHeaders(credential);
  // Beta flags the client chose (prompt-caching scopes, interleaved thinking, …) change what its body means.
  const beta = mergedBeta(client["anthropic-beta"], auth["anthropic-beta"]);
  const { "anthropic-beta": _authBeta, ...authOnly } = auth;
  return {
    provider: settings.id,
    url: anthropicMessagesUrl(settings.baseUrl),
    headers: {
      ...(settings.headers ?? {}),
      "anthropic-version": client["anthropic-version"] ?? ANTHROPIC_VERSION,
      ...authOnly,
      ...(beta !== undefined ? { "anthropic-beta": beta } : {}),
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
    },
    timeoutMs: timeoutMsOf(settings),
    ...(settings.dispatcher ? { dispatcher: settings.dispatcher } : {}),
    describeError: describeAnthropicError,
    secrets: [credentialSecret(credential)],
  };
}
