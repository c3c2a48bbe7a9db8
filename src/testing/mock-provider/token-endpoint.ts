/**
 * The mock's stand-in for Google's OAuth token endpoint (`POST /token`): it takes a service account's signed
 * JWT assertion (the jwt-bearer grant google-auth-library sends), checks that it names an account and a
 * scope, and issues a short-lived access token that the mock's Vertex paths then accept. The assertion's
 * signature is not verified: the mock knows no account's public key, and the check that matters to Detour is
 * that a token was fetched, kept and sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "./serve-step.js";

export const MOCK_TOKEN_PATH = "/token";

const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Google's answer to a request without a valid token. */
export const VERTEX_UNAUTHENTICATED = {
  error: {
    code: 401,
    message:
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    status: "UNAUTHENTICATED",
  },
};

export interface MockTokenGrant {
  /** The service account (`iss` of the assertion). */
  account: string;
  scope: string;
  /** Epoch milliseconds. */
  issuedAt: number;
}

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 64 * 1024) chunks.push(chunk);
    });
    request.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    request.on("error", reject);
  });
}

function assertionClaims(assertion: string): Record<string, unknown> | undefined {
  const parts = assertion.split(".");
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class MockTokenEndpoint {
  readonly #lifetimeSeconds: number;
  readonly #issued = new Set<string>();
  readonly #grants: MockTokenGrant[] = [];

  constructor(lifetimeSeconds: number) {
    this.#lifetimeSeconds = lifetimeSeconds;
  }

  /** Whether `token` is one this endpoint issued. */
  accepts(token: string | undefined): boolean {
    return token !== undefined && this.#issued.has(token);
  }

  /** Refuses every token issued so far, as a revoked key or an early expiry would; later grants are accepted. */
  revokeAll(): void {
    this.#issued.clear();
  }

  grants(): MockTokenGrant[] {
    return this.#grants.map((grant) => ({ ...grant }));
  }

  async grant(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const claims = form.get("grant_type") === JWT_BEARER_GRANT ? assertionClaims(form.get("assertion") ?? "") : undefined;
    const account = claims?.iss;
    const scope = claims?.scope;
    if (typeof account !== "string" || typeof scope !== "string") {
      return sendJson(response, 400, {
        error: "invalid_grant",
        error_description: "Invalid JWT: expected a signed assertion with iss and scope.",
      });
    }
    const token = `ya29.mock-${this.#grants.length + 1}`;
    this.#issued.add(token);
    this.#grants.push({ account, scope, issuedAt: Date.now() });
    sendJson(response, 200, { access_token: token, expires_in: this.#lifetimeSeconds, token_type: "Bearer" });
  }
}
