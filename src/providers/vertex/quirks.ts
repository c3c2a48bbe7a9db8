/**
 * Google Vertex AI (`api: "vertex"`): Gemini (`publisher: "google"`, the Gemini wire at
 * `…/publishers/google/models/<m>:generateContent`) or Claude (`publisher: "anthropic"`, the Anthropic Messages
 * wire at `…/publishers/anthropic/models/<m>:rawPredict` / `:streamRawPredict`, with the model in the URL and
 * Vertex's `anthropic_version` in the body — everything else the client sent is carried unchanged).
 * Auth is an OAuth access token: a service account's (the profile's key holding the key file's JSON, or
 * `vertex.keyFile`), Application Default Credentials without either, or a profile's ready access token.
 * Tokens are kept until shortly before they expire and fetched single-flight.
 */
import type { Credential } from "../../core/types.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { WIRE_FORMATS } from "../../wire/formats.js";
import { AccessTokenCache } from "../cloud/access-token-cache.js";
import { fetchGoogleAccessToken, serviceAccountKeyOf, type GoogleTokenSource } from "../cloud/google-access-token.js";
import { toVertexAnthropicRequest, vertexAnthropicUrl, vertexGeminiUrl, type VertexModelAddress } from "../cloud/vertex-request.js";
import { credentialSecret } from "../shared/credentials.js";
import { acceptHeader, type EndpointSigner, type OutgoingRequest, type ProviderQuirks } from "../shared/provider-quirks.js";
import type { VertexSettings } from "../shared/provider-settings.js";

/** The client headers Vertex reads for Claude: beta flags (Vertex takes the version from the body). */
function anthropicBetaOf(client: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const beta = client?.["anthropic-beta"];
  return beta ? { "anthropic-beta": beta } : {};
}

/** The Messages body as Vertex wants it: no `model` (it is in the URL), `anthropic_version` added. */
function vertexAnthropicBody(request: OutgoingRequest, address: Omit<VertexModelAddress, "model">): OutgoingRequest {
  const body: unknown = JSON.parse(request.body.toString("utf8"));
  if (typeof body !== "object" || body === null || Array.isArray(body)) return request;
  // The URL was built from the model the attempt runs on; the body's own `model` only goes.
  const { body: vertexBody } = toVertexAnthropicRequest(body as Record<string, unknown>, { ...address, model: "-" });
  return { ...request, body: Buffer.from(JSON.stringify(vertexBody)) };
}

/** Where one call's token comes from: the profile's key or token, else the provider's key file or ADC. */
function tokenSourceOf(credential: Credential | undefined, settings: VertexSettings): { bearer: string } | GoogleTokenSource {
  const secret = credentialSecret(credential);
  if (secret !== undefined && secret !== "") {
    const key = serviceAccountKeyOf(secret);
    // A secret that is not a key file's JSON is an access token the user fetched (`gcloud auth print-access-token`).
    return key ? { kind: "key", key } : { bearer: secret };
  }
  return settings.keyFile !== undefined ? { kind: "key-file", path: settings.keyFile } : { kind: "adc" };
}

function sourceKey(source: GoogleTokenSource): string {
  if (source.kind === "key") return `key:${source.key.client_email}:${source.key.private_key_id ?? ""}`;
  return source.kind === "key-file" ? `file:${source.path}` : "adc";
}

/** One token cache per service account (each profile may be another account), created on first use. */
function vertexTokenSigner(providerId: string, settings: VertexSettings): EndpointSigner {
  const caches = new Map<string, AccessTokenCache>();
  return async (request, signal, credential) => {
    const source = tokenSourceOf(credential, settings);
    let token: string;
    let tokenRefused: (() => void) | undefined;
    if ("bearer" in source) {
      token = source.bearer;
    } else {
      const key = sourceKey(source);
      let cache = caches.get(key);
      if (!cache) {
        cache = new AccessTokenCache({ fetch: () => fetchGoogleAccessToken(source, settings.tokenUrl) });
        caches.set(key, cache);
      }
      const kept = cache;
      try {
        token = await kept.token(signal);
        tokenRefused = () => kept.invalidate(token);
      } catch (error) {
        if (signal.aborted) throw error;
        const problem = error instanceof Error ? error.message : String(error);
        // A 401 to the classifier: this profile's auth failed, so the attempt rotates (R-EC-3).
        throw new UpstreamFailure(
          `${providerId}: no Google access token for Vertex AI (${problem}). Check the profile's service-account key, ` +
            `models.providers.${providerId}.vertex.keyFile, or Application Default Credentials.`,
          { provider: providerId, status: 401 },
          error,
        );
      }
    }
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` }, ...(tokenRefused ? { tokenRefused } : {}) };
  };
}

function vertexSettingsOf(settings: { id: string; vertex?: VertexSettings }): VertexSettings {
  if (!settings.vertex) throw new TypeError(`models.providers.${settings.id}.vertex is required for api "vertex"`);
  return settings.vertex;
}

export const vertexQuirks: ProviderQuirks = {
  api: "vertex",
  wireOf: (settings) => WIRE_FORMATS[vertexSettingsOf(settings).publisher === "anthropic" ? "anthropic-messages" : "google-generative-ai"],
  endpoint(settings) {
    const vertex = vertexSettingsOf(settings);
    const address = { project: vertex.project, location: vertex.location, baseUrl: settings.baseUrl };
    const signWithToken = vertexTokenSigner(settings.id, vertex);
    if (vertex.publisher === "anthropic") {
      return {
        url: (model, stream) => vertexAnthropicUrl({ ...address, model }, stream),
        headers: (_credential, stream, client) => ({ ...anthropicBetaOf(client), ...acceptHeader(stream) }),
        sign: (request, signal, credential) => signWithToken(vertexAnthropicBody(request, address), signal, credential),
      };
    }
    return {
      url: (model, stream) => vertexGeminiUrl({ ...address, model: model.replace(/^models\//, "") }, stream),
      headers: (_credential, stream) => acceptHeader(stream),
      sign: signWithToken,
    };
  },
};
