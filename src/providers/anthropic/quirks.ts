/** Anthropic Messages (`api: "anthropic-messages"`): `…/v1/messages` with an API key or a Claude subscription token. */
import type { Credential } from "../../core/types.js";
import { ANTHROPIC_VERSION } from "../../wire/anthropic-messages/schemas.js";
import { credentialSecret } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import { acceptHeader, type ProviderQuirks } from "../shared/provider-quirks.js";

/** Claude subscription tokens (OAuth and setup tokens) are only accepted with this beta flag. */
export const ANTHROPIC_OAUTH_BETA = "oauth-2025-04-20";

/** What a client sent that selects Anthropic API behaviour; the same-wire lane forwards it so the body keeps its meaning. */
export interface AnthropicClientHeaders {
  "anthropic-version"?: string;
  "anthropic-beta"?: string;
}

export function anthropicAuthHeaders(credential: Credential | undefined): Record<string, string> {
  const secret = credentialSecret(credential);
  if (!secret || !credential) return {};
  if (credential.type === "api_key") return { "x-api-key": secret };
  return { authorization: `Bearer ${secret}`, "anthropic-beta": ANTHROPIC_OAUTH_BETA };
}

/** `https://api.anthropic.com` → `/v1/messages`; a base URL that already ends in `/v1` is not doubled. */
export function anthropicMessagesUrl(baseUrl: string): string {
  return /\/v1\/?$/.test(baseUrl) ? joinUrl(baseUrl, "messages") : joinUrl(baseUrl, "v1/messages");
}

function mergedBeta(client: string | undefined, auth: string | undefined): string | undefined {
  if (client === undefined) return auth;
  if (auth === undefined) return client;
  const flags = new Set([...client.split(","), ...auth.split(",")].map((flag) => flag.trim()).filter((flag) => flag !== ""));
  return [...flags].join(",");
}

/** The version and auth headers of a call; the client's own version and beta flags (prompt-caching scopes, interleaved thinking, …) when it chose them. */
export function anthropicHeaders(credential: Credential | undefined, client: AnthropicClientHeaders = {}): Record<string, string> {
  const { "anthropic-beta": authBeta, ...auth } = anthropicAuthHeaders(credential);
  const beta = mergedBeta(client["anthropic-beta"], authBeta);
  return {
    "anthropic-version": client["anthropic-version"] ?? ANTHROPIC_VERSION,
    ...auth,
    ...(beta !== undefined ? { "anthropic-beta": beta } : {}),
  };
}

export const anthropicQuirks: ProviderQuirks = {
  api: "anthropic-messages",
  endpoint(settings) {
    // Fixed per provider: built once, not on every call.
    const url = anthropicMessagesUrl(settings.baseUrl);
    return {
      url: () => url,
      headers: (credential, stream, client) => ({ ...anthropicHeaders(credential, client), ...acceptHeader(stream) }),
    };
  },
};
