/**
 * Client and admin authentication for the gateway (R-GW-5).
 * Tokens are compared in constant time so response timing does not leak how much of a token matched.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { DetourError, ERROR_CODES } from "../core/errors.js";

export type AccessLevel = "client" | "admin";

export interface GatewayAuthSettings {
  tokens?: readonly string[];
  adminTokens?: readonly string[];
}

/** Hash first so tokens of different lengths still compare in constant time. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

function matchesAny(presented: string, accepted: readonly string[]): boolean {
  const presentedDigest = digest(presented);
  let matched = false;
  // Walk every token even after a match, so the time taken does not reveal which one matched.
  for (const token of accepted) {
    if (timingSafeEqual(presentedDigest, digest(token))) matched = true;
  }
  return matched;
}

/** Extracts the bearer token from an Authorization header (or Anthropic's x-api-key). */
export function presentedToken(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const authorization = headers.authorization;
  const value = Array.isArray(authorization) ? authorization[0] : authorization;
  if (value) {
    const match = /^Bearer\s+(.+)$/i.exec(value.trim());
    if (match?.[1]) return match[1].trim();
  }
  const apiKey = headers["x-api-key"];
  const key = Array.isArray(apiKey) ? apiKey[0] : apiKey;
  return key?.trim() || undefined;
}

export type AuthDecision = { allowed: true } | { allowed: false; status: 401 | 403 | 404; message: string };

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * Decides whether a request may use a route of the given access level.
 * - client (`/v1/*`): open when no client tokens are configured, else one of them is required.
 * - admin (`/admin/*`): one of the admin tokens when any are set; with none set, only on a
 *   loopback-bound gateway (local development), otherwise the routes are off. Client tokens never
 *   open admin routes.
 */
export function authorize(level: AccessLevel, settings: GatewayAuthSettings, boundHost: string, token: string | undefined): AuthDecision {
  if (level === "client") {
    const tokens = settings.tokens ?? [];
    if (tokens.length === 0) return { allowed: true };
    if (token !== undefined && matchesAny(token, tokens)) return { allowed: true };
    return {
      allowed: false,
      status: 401,
      message: "Missing or invalid gateway token: send `Authorization: Bearer <token>` with one of gateway.auth.tokens.",
    };
  }
  const adminTokens = settings.adminTokens ?? [];
  if (adminTokens.length === 0) {
    if (isLoopbackHost(boundHost)) return { allowed: true };
    return {
      allowed: false,
      status: 404,
      message: "Admin routes are off on a non-loopback gateway without gateway.auth.adminTokens.",
    };
  }
  if (token !== undefined && matchesAny(token, adminTokens)) return { allowed: true };
  return {
    allowed: false,
    status: 401,
    message: "Missing or invalid admin token: send `Authorization: Bearer <token>` with one of gateway.auth.adminTokens.",
  };
}

/** Binding a non-loopback host without client tokens would expose every credential to the network. */
export function assertSafeBinding(host: string, settings: GatewayAuthSettings): void {
  if (!isLoopbackHost(host) && (settings.tokens ?? []).length === 0) {
    throw new GatewayBindError(host);
  }
}

export class GatewayBindError extends DetourError {
  readonly code = ERROR_CODES.gatewayUnsafeBind;
  constructor(host: string) {
    super(
      `Refusing to bind the gateway to ${host} without client tokens: anyone on the network could spend your ` +
        `credentials. Set gateway.auth.tokens, or bind to 127.0.0.1.`,
    );
  }
}
