/** Google Gemini (`api: "google-generative-ai"`): `models/{model}:generateContent`, and `:streamGenerateContent?alt=sse`. */
import type { Credential } from "../../core/types.js";
import { credentialSecret } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import { acceptHeader, type ProviderQuirks } from "../shared/provider-quirks.js";

export function googleAuthHeaders(credential: Credential | undefined): Record<string, string> {
  const secret = credentialSecret(credential);
  if (!secret || !credential) return {};
  return credential.type === "api_key" ? { "x-goog-api-key": secret } : { authorization: `Bearer ${secret}` };
}

/**
 * `{base}/models/{model}:{method}`. A bare host gets the `v1beta` API version, which is where the
 * Gemini API documents function calling and `alt=sse` streaming.
 */
export function googleMethodUrl(baseUrl: string, model: string, method: "generateContent" | "streamGenerateContent"): string {
  let base = baseUrl;
  try {
    if (new URL(baseUrl).pathname.replace(/\/+$/, "") === "") base = joinUrl(baseUrl, "v1beta");
  } catch {
    // Not an absolute URL: used as given, the request will fail with a clear connection error.
  }
  const modelId = model.replace(/^models\//, "");
  const url = joinUrl(base, `models/${encodeURIComponent(modelId)}:${method}`);
  return method === "streamGenerateContent" ? `${url}?alt=sse` : url;
}

export const googleQuirks: ProviderQuirks = {
  api: "google-generative-ai",
  endpoint(settings) {
    return {
      url: (model, stream) => googleMethodUrl(settings.baseUrl, model, stream ? "streamGenerateContent" : "generateContent"),
      headers: (credential, stream) => ({ ...googleAuthHeaders(credential), ...acceptHeader(stream) }),
    };
  },
};
