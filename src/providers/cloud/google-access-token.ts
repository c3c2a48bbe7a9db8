/**
 * OAuth access tokens for Vertex AI through `google-auth-library`, which is loaded only when a Vertex
 * provider first needs a token: a service account's key (a profile's key holding the key file's JSON, or
 * `vertex.keyFile`), or else Application Default Credentials. The token endpoint can be moved (`tokenUrl`),
 * so a test or an air-gapped proxy can stand in for Google's.
 */
import type { AccessToken } from "./access-token-cache.js";

export const GOOGLE_CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
/** Where google-auth-library sends a service account's signed assertion. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

/** A profile's key as a service-account key, when it is one (the JSON of a downloaded key file). */
export function serviceAccountKeyOf(secret: string): ServiceAccountKey | undefined {
  if (!secret.trimStart().startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(secret);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { client_email: email, private_key: key, private_key_id: keyId } = parsed as Record<string, unknown>;
    if (typeof email !== "string" || typeof key !== "string") return undefined;
    return { client_email: email, private_key: key, ...(typeof keyId === "string" ? { private_key_id: keyId } : {}) };
  } catch {
    return undefined;
  }
}

export type GoogleTokenSource = { kind: "key"; key: ServiceAccountKey } | { kind: "key-file"; path: string } | { kind: "adc" };

type GoogleAuthModule = typeof import("google-auth-library");
let loaded: Promise<GoogleAuthModule> | undefined;

/** The library is imported once, on the first token a Vertex provider asks for; Detour without Vertex never loads it. */
function googleAuthLibrary(): Promise<GoogleAuthModule> {
  loaded ??= import("google-auth-library");
  return loaded;
}

interface TokenClient {
  transporter: { interceptors: { request: { add(interceptor: { resolved: (config: { url: URL }) => Promise<{ url: URL }> }): void } } };
}

/** Sends the library's token request to `tokenUrl` instead of Google's endpoint. */
function redirectTokenRequests(client: TokenClient, tokenUrl: string | undefined): void {
  if (tokenUrl === undefined) return;
  client.transporter.interceptors.request.add({
    resolved: async (config) => (config.url.href === GOOGLE_TOKEN_URL ? { ...config, url: new URL(tokenUrl) } : config),
  });
}

export async function fetchGoogleAccessToken(source: GoogleTokenSource, tokenUrl: string | undefined): Promise<AccessToken> {
  const { JWT, GoogleAuth } = await googleAuthLibrary();
  if (source.kind === "adc") {
    const client = await new GoogleAuth({ scopes: [GOOGLE_CLOUD_PLATFORM_SCOPE] }).getClient();
    const { token } = await client.getAccessToken();
    if (!token) throw new Error("Application Default Credentials gave no access token");
    const expiry = client.credentials.expiry_date;
    return { token, ...(typeof expiry === "number" ? { expiresAt: expiry } : {}) };
  }
  const client =
    source.kind === "key"
      ? new JWT({
          email: source.key.client_email,
          key: source.key.private_key,
          ...(source.key.private_key_id ? { keyId: source.key.private_key_id } : {}),
          scopes: [GOOGLE_CLOUD_PLATFORM_SCOPE],
        })
      : new JWT({ keyFile: source.path, scopes: [GOOGLE_CLOUD_PLATFORM_SCOPE] });
  redirectTokenRequests(client as unknown as TokenClient, tokenUrl);
  const credentials = await client.authorize();
  if (!credentials.access_token) throw new Error("the token endpoint answered without an access_token");
  return {
    token: credentials.access_token,
    ...(typeof credentials.expiry_date === "number" ? { expiresAt: credentials.expiry_date } : {}),
  };
}
