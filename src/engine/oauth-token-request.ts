/**
 * One OAuth 2.0 refresh-token grant (R-AP-5) through oauth4webapi, and the failover reason of a refresh that
 * produced no tokens (R-EC-5: a rejected refresh is `auth_permanent`; a refresh that times out, or cannot reach
 * the endpoint, is `timeout`). Errors thrown here name the provider, profile, HTTP status and OAuth error
 * code — never a token (R-OB-2) — and carry no `cause`, because oauth4webapi's causes hold response bodies.
 */
import type * as OAuth from "oauth4webapi";
import type { OAuthEndpoint } from "../config/index.js";
import { classifyFailure } from "../core/classify/index.js";
import { FailoverError } from "../core/errors.js";
import type { FailoverReason } from "../core/reasons.js";
import type { Clock } from "../ports/clock.js";
import { raceAbort } from "../core/race-abort.js";

export interface TokenRefreshRequest {
  endpoint: OAuthEndpoint;
  refreshToken: string;
  provider: string;
  profileId: string;
  clock: Clock;
  /** The refresh gives up after this long (on the injected clock) and fails as `timeout`. */
  timeoutMs: number;
}

export interface RefreshedTokens {
  access: string;
  /** Present when the endpoint rotated the refresh token; the old one may already be void. */
  refresh?: string;
  expiresInSeconds?: number;
}

/** What went wrong with a refresh, before it is turned into a failover reason. */
export type RefreshFailure =
  | { kind: "http_error"; status: number; oauthError?: string }
  | { kind: "timed_out"; timeoutMs: number }
  | { kind: "network"; code?: string }
  | { kind: "unusable_response"; detail: string }
  | { kind: "bad_endpoint"; detail: string };

/**
 * HTTP statuses with which a token endpoint refuses the refresh token or the client itself (400
 * `invalid_grant` / `invalid_client`, 401, 403): nothing but a new login helps, so the profile is disabled
 * (R-EC-5 auth_permanent). Other statuses (429, 5xx) are the classifier's, like any upstream answer.
 */
export const REFRESH_REJECTION_STATUSES: ReadonlySet<number> = new Set([400, 401, 403]);

/** The failover reason of each refresh failure; `http_error` outside the rejection statuses asks the classifier. */
export const REFRESH_FAILURE_REASONS: Readonly<Record<Exclude<RefreshFailure["kind"], "http_error">, FailoverReason>> = Object.freeze({
  timed_out: "timeout",
  network: "timeout",
  // A 200 without a usable access token is the endpoint's fault; a cooldown lets it recover.
  unusable_response: "server_error",
  // Only a config change helps (R-CF-3 `models.providers.<id>.oauth.tokenUrl`).
  bad_endpoint: "auth_permanent",
});

export function refreshFailureReason(failure: RefreshFailure, provider: string): FailoverReason {
  if (failure.kind !== "http_error") return REFRESH_FAILURE_REASONS[failure.kind];
  if (REFRESH_REJECTION_STATUSES.has(failure.status)) return "auth_permanent";
  return classifyFailure({ provider, status: failure.status, code: failure.oauthError, message: failure.oauthError }).reason;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "[::1]", "::1"]);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** https everywhere; plain http only on loopback (local test servers, R-AP-5 tests). */
function tokenEndpointUrl(tokenUrl: string): { url: URL; insecure: boolean } | { problem: string } {
  let url: URL;
  try {
    url = new URL(tokenUrl);
  } catch {
    return { problem: "is not a valid URL" };
  }
  if (url.protocol === "https:") return { url, insecure: false };
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return { url, insecure: true };
  if (url.protocol === "http:") return { problem: "uses plain http on a non-loopback host; use https" };
  return { problem: `uses ${url.protocol} — only https (or http on loopback) is allowed` };
}

class RefreshTimedOut extends Error {}

function failureMessage(failure: RefreshFailure, request: TokenRefreshRequest): string {
  const who = `profile ${request.profileId} (${request.provider})`;
  const relogin = `Log in again and store the new tokens with \`detour auth add ${request.provider} --type oauth --key -\`.`;
  switch (failure.kind) {
    case "http_error": {
      const detail = `HTTP ${failure.status}${failure.oauthError ? ` ${failure.oauthError}` : ""}`;
      return REFRESH_REJECTION_STATUSES.has(failure.status)
        ? `The token endpoint rejected the OAuth refresh of ${who} (${detail}). ${relogin}`
        : `The OAuth refresh of ${who} failed (${detail}); Detour will try again after a cooldown.`;
    }
    case "timed_out":
      return `The OAuth refresh of ${who} timed out after ${failure.timeoutMs} ms; Detour will try again after a cooldown.`;
    case "network":
      return `The OAuth token endpoint of ${who} could not be reached${failure.code ? ` (${failure.code})` : ""}; check the network.`;
    case "unusable_response":
      return `The token endpoint answered the OAuth refresh of ${who} without usable tokens (${failure.detail}).`;
    case "bad_endpoint":
      return `The OAuth token URL of ${request.provider} ${failure.detail}: fix models.providers.${request.provider}.oauth.tokenUrl.`;
  }
}

export function refreshFailureError(failure: RefreshFailure, request: TokenRefreshRequest): FailoverError {
  const code =
    failure.kind === "http_error" ? failure.oauthError : failure.kind === "network" ? failure.code : `oauth_refresh_${failure.kind}`;
  return new FailoverError(failureMessage(failure, request), {
    reason: refreshFailureReason(failure, request.provider),
    provider: request.provider,
    profileId: request.profileId,
    ...(failure.kind === "http_error" ? { status: failure.status } : {}),
    ...(code ? { code } : {}),
  });
}

function networkCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/**
 * oauth4webapi is loaded on the first refresh, not when the engine is built: most setups have no OAuth
 * profile, and a plain `detour gateway` start should not hold a library it never calls (idle RSS).
 */
let oauthLibrary: Promise<typeof OAuth> | undefined;
function loadOAuth(): Promise<typeof OAuth> {
  oauthLibrary ??= import("oauth4webapi");
  return oauthLibrary;
}

function describeFailure(
  error: unknown,
  status: number | undefined,
  signal: AbortSignal,
  timeoutMs: number,
  oauth: typeof OAuth | undefined,
): RefreshFailure {
  if (signal.reason instanceof RefreshTimedOut) return { kind: "timed_out", timeoutMs };
  if (status !== undefined && status !== 200) {
    const oauthError = oauth !== undefined && error instanceof oauth.ResponseBodyError ? error.error : undefined;
    return { kind: "http_error", status, ...(oauthError ? { oauthError } : {}) };
  }
  if (status === 200) {
    // oauth4webapi's messages are fixed texts; the offending body sits in `cause`, which is dropped.
    return { kind: "unusable_response", detail: error instanceof Error ? error.message : "unreadable body" };
  }
  const code = networkCode(error);
  return { kind: "network", ...(code ? { code } : {}) };
}

/** Sends the refresh-token grant and returns the new tokens; throws a classified `FailoverError` otherwise. */
export async function requestTokenRefresh(request: TokenRefreshRequest): Promise<RefreshedTokens> {
  const target = tokenEndpointUrl(request.endpoint.tokenUrl);
  if ("problem" in target) throw refreshFailureError({ kind: "bad_endpoint", detail: target.problem }, request);

  // The issuer only matters for an id_token in the answer (OpenAI sends one); vendors issue from the
  // token endpoint's origin.
  const server: OAuth.AuthorizationServer = { issuer: target.url.origin, token_endpoint: target.url.href };
  const client: OAuth.Client = { client_id: request.endpoint.clientId };
  const controller = new AbortController();
  const stopTimer = new AbortController();
  request.clock.sleep(request.timeoutMs, stopTimer.signal).then(
    () => controller.abort(new RefreshTimedOut()),
    () => {
      // Cancelled: the refresh settled first.
    },
  );
  let status: number | undefined;
  let oauth: typeof OAuth | undefined;
  try {
    // Inside the timed part: a refresh that times out while the library loads fails as `timeout` too.
    oauth = await raceAbort(loadOAuth(), controller.signal);
    const response = await raceAbort(
      oauth.refreshTokenGrantRequest(server, client, oauth.None(), request.refreshToken, {
        signal: controller.signal,
        ...(target.insecure ? { [oauth.allowInsecureRequests]: true } : {}),
      }),
      controller.signal,
    );
    status = response.status;
    const body = await raceAbort(oauth.processRefreshTokenResponse(server, client, response), controller.signal);
    return {
      access: body.access_token,
      ...(body.refresh_token ? { refresh: body.refresh_token } : {}),
      ...(body.expires_in !== undefined ? { expiresInSeconds: body.expires_in } : {}),
    };
  } catch (error) {
    throw refreshFailureError(describeFailure(error, status, controller.signal, request.timeoutMs, oauth), request);
  } finally {
    stopTimer.abort();
    // Ends a request still in flight (a late abort after success is a no-op).
    if (!controller.signal.aborted) controller.abort();
  }
}
