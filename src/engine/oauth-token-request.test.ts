import { afterEach, describe, expect, it } from "vitest";
import { startTokenServer, grant, oauthError, type TokenReply, type TokenServer } from "../../test/oauth/token-server.js";
import { FailoverError } from "../core/errors.js";
import type { FailoverReason } from "../core/reasons.js";
import { FakeClock } from "../testing/fake-clock.js";
import {
  REFRESH_FAILURE_REASONS,
  REFRESH_REJECTION_STATUSES,
  refreshFailureReason,
  requestTokenRefresh,
  type RefreshFailure,
} from "./oauth-token-request.js";

const REFRESH_TOKEN = "rt-secret-0123456789";
const ACCESS_TOKEN = "at-secret-abcdef";

let server: TokenServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function request(tokenUrl: string, clock = new FakeClock()) {
  return {
    endpoint: { tokenUrl, clientId: "detour-test-client" },
    refreshToken: REFRESH_TOKEN,
    provider: "anthropic",
    profileId: "anthropic:me@example.com",
    clock,
    timeoutMs: 5_000,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<FailoverError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FailoverError);
  const failure = error as FailoverError;
  // R-OB-2: neither token appears anywhere in what the error carries.
  const carried = `${failure.message} ${JSON.stringify({ ...failure })} ${String(failure.cause ?? "")}`;
  expect(carried).not.toContain(REFRESH_TOKEN);
  expect(carried).not.toContain(ACCESS_TOKEN);
  return failure;
}

describe("requestTokenRefresh", () => {
  it("R-AP-5: sends the refresh-token grant with the client id and returns the new tokens", async () => {
    server = await startTokenServer(() => grant(ACCESS_TOKEN, { refresh: "rt-next", expiresIn: 1800 }));
    const tokens = await requestTokenRefresh(request(server.url));
    expect(tokens).toEqual({ access: ACCESS_TOKEN, refresh: "rt-next", expiresInSeconds: 1800 });
    expect(server.requests).toEqual([{ grantType: "refresh_token", refreshToken: REFRESH_TOKEN, clientId: "detour-test-client" }]);
  });

  it("R-AP-5: keeps no refresh token when the endpoint does not rotate it", async () => {
    server = await startTokenServer(() => grant(ACCESS_TOKEN));
    expect(await requestTokenRefresh(request(server.url))).toEqual({ access: ACCESS_TOKEN, expiresInSeconds: 3600 });
  });

  // R-EC-5: "OAuth refresh rejected" is auth_permanent; the rest follows the status rules (R-EC-3).
  const answered: { name: string; reply: TokenReply; reason: FailoverReason; status?: number; code?: string }[] = [
    {
      name: "400 invalid_grant",
      reply: oauthError(400, "invalid_grant", "Refresh token revoked"),
      reason: "auth_permanent",
      status: 400,
      code: "invalid_grant",
    },
    { name: "400 invalid_client", reply: oauthError(400, "invalid_client"), reason: "auth_permanent", status: 400, code: "invalid_client" },
    { name: "401 with an OAuth body", reply: oauthError(401, "invalid_client"), reason: "auth_permanent", status: 401 },
    { name: "401 without a body", reply: { status: 401 }, reason: "auth_permanent", status: 401 },
    {
      name: "401 with a WWW-Authenticate challenge",
      reply: { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } },
      reason: "auth_permanent",
      status: 401,
    },
    { name: "403 html page", reply: { status: 403, body: "<html>Forbidden</html>" }, reason: "auth_permanent", status: 403 },
    { name: "429", reply: { status: 429, body: { error: "rate_limited" } }, reason: "rate_limit", status: 429 },
    { name: "503", reply: { status: 503 }, reason: "overloaded", status: 503 },
    { name: "502 html page", reply: { status: 502, body: "<html>Bad gateway</html>" }, reason: "timeout", status: 502 },
    { name: "200 without access_token", reply: { status: 200, body: { token_type: "Bearer" } }, reason: "server_error" },
    { name: "200 that is not JSON", reply: { status: 200, body: "<html>ok</html>" }, reason: "server_error" },
  ];
  it.each(answered)("R-AP-5: a refresh answered with $name classifies as $reason", async ({ reply, reason, status, code }) => {
    server = await startTokenServer(() => reply);
    const failure = await failureOf(requestTokenRefresh(request(server.url)));
    expect(failure).toMatchObject({ reason, provider: "anthropic", profileId: "anthropic:me@example.com" });
    if (status !== undefined) expect(failure.status).toBe(status);
    if (code !== undefined) expect(failure.upstreamCode).toBe(code);
  });

  it("R-AP-5: a rejected refresh tells the user to log in again", async () => {
    server = await startTokenServer(() => oauthError(400, "invalid_grant"));
    const failure = await failureOf(requestTokenRefresh(request(server.url)));
    expect(failure.message).toMatch(/rejected the OAuth refresh of profile anthropic:me@example\.com.*detour auth add anthropic/);
  });

  it("R-AP-5: a refresh that gets no answer times out on the injected clock as timeout", async () => {
    server = await startTokenServer(() => ({ hang: true }));
    const clock = new FakeClock();
    const failed = failureOf(requestTokenRefresh(request(server.url, clock)));
    await server.waitForRequests(1);
    await clock.advanceAsync(4_999);
    expect(clock.pendingSleeps).toBe(1);
    await clock.advanceAsync(1);
    const failure = await failed;
    expect(failure).toMatchObject({ reason: "timeout", upstreamCode: "oauth_refresh_timed_out" });
    expect(failure.message).toContain("timed out after 5000 ms");
  });

  it("R-AP-5: an unreachable token endpoint (connection refused) classifies as timeout", async () => {
    const closed = await startTokenServer(() => grant(ACCESS_TOKEN));
    await closed.close();
    const failure = await failureOf(requestTokenRefresh(request(closed.url)));
    expect(failure).toMatchObject({ reason: "timeout", upstreamCode: "ECONNREFUSED" });
  });

  const badEndpoints = [
    { tokenUrl: "http://auth.example.com/oauth/token", problem: /plain http on a non-loopback host/ },
    { tokenUrl: "ftp://127.0.0.1/token", problem: /only https/ },
    { tokenUrl: "not a url", problem: /not a valid URL/ },
  ];
  it.each(badEndpoints)("R-AP-5: token URL $tokenUrl is refused before any request", async ({ tokenUrl, problem }) => {
    const failure = await failureOf(requestTokenRefresh(request(tokenUrl)));
    expect(failure.reason).toBe("auth_permanent");
    expect(failure.message).toMatch(problem);
    expect(failure.message).toContain("models.providers.anthropic.oauth.tokenUrl");
  });
});

describe("refreshFailureReason", () => {
  const rows: { failure: RefreshFailure; reason: FailoverReason }[] = [
    ...[...REFRESH_REJECTION_STATUSES].map((status) => ({
      failure: { kind: "http_error", status } as RefreshFailure,
      reason: "auth_permanent" as const,
    })),
    { failure: { kind: "http_error", status: 429 }, reason: "rate_limit" },
    { failure: { kind: "http_error", status: 529 }, reason: "overloaded" },
    { failure: { kind: "timed_out", timeoutMs: 1 }, reason: REFRESH_FAILURE_REASONS.timed_out },
    { failure: { kind: "network", code: "ECONNRESET" }, reason: "timeout" },
    { failure: { kind: "unusable_response", detail: "x" }, reason: "server_error" },
    { failure: { kind: "bad_endpoint", detail: "x" }, reason: "auth_permanent" },
  ];
  it.each(rows)("R-EC-5: refresh failure $failure.kind $failure.status → $reason", ({ failure, reason }) => {
    expect(refreshFailureReason(failure, "anthropic")).toBe(reason);
  });

  it("R-EC-5: a timed-out refresh is timeout and a network failure is timeout", () => {
    expect(REFRESH_FAILURE_REASONS.timed_out).toBe("timeout");
    expect(REFRESH_FAILURE_REASONS.network).toBe("timeout");
  });
});
