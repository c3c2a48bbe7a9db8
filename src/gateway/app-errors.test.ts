import { describe, expect, it } from "vitest";
import { httpError } from "../testing/scripted-provider.js";
import { anthropicBody, gatewayPerTest, openAIBody } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

describe("gateway errors and limits", () => {
  it("R-GW-4: malformed JSON is a 400 in the route's dialect and reaches no provider", async () => {
    const { app, openai } = await start();
    const openAI = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "content-type": "application/json" },
      payload: '{"model": "detour", "messages": [',
    });
    expect(openAI.statusCode).toBe(400);
    expect(openAI.json().error.type).toBe("invalid_request_error");
    expect(openAI.json().error.param).toBe("(body)");

    const anthropic = await app.inject({
      method: "POST",
      url: "/v1/messages",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(anthropic.statusCode).toBe(400);
    expect(anthropic.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-4: a schema violation is a 400 naming the path of the problem", async () => {
    const { app, openai } = await start();
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: {
        model: "detour",
        messages: [
          { role: "user", content: "ok" },
          { role: "wizard", content: "?" },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.param).toMatch(/^messages\[1\]/);
    const anthropic = await app.inject({ method: "POST", url: "/v1/messages", payload: { model: "detour", messages: [] } });
    expect(anthropic.statusCode).toBe(400);
    expect(anthropic.json().error.message).toContain("max_tokens");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-4: a body over gateway.maxBodyMb is a 413 and reaches no provider", async () => {
    const { app, openai } = await start({ gateway: { maxBodyMb: 0.01 } });
    const big = "x".repeat(20_000);
    const response = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody(big) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ type: "error", error: { type: "request_too_large" } });
    expect(response.json().error.message).toContain("gateway.maxBodyMb");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-4 R-RA-2: exhaustion with every attempt rate-limited is a 429 with Retry-After and the attempts", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(429, "rate limit exceeded"));
    anthropic.always({}, httpError(429, "rate limit exceeded"));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(response.statusCode).toBe(429);
    // The first rung of the cooldown ladder is 30 s.
    expect(response.headers["retry-after"]).toBe("30");
    const error = response.json().error;
    expect(error.type).toBe("rate_limit_error");
    expect(error.attempts.map((attempt: { provider: string }) => attempt.provider)).toEqual(["openai", "anthropic"]);
    expect(error.attempts.every((attempt: { reason: string }) => attempt.reason === "rate_limit")).toBe(true);
  });

  it("R-GW-4 R-RA-2: exhaustion that is not all rate limits is a 503 in the Anthropic shape", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(429, "rate limit exceeded"));
    anthropic.always({}, httpError(529, "Overloaded"));
    const response = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi") });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toMatch(/^\d+$/);
    expect(response.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    expect(response.json().error.attempts).toHaveLength(2);
  });

  it("R-GW-4: a strict user selection that fails answers with the provider's status and message", async () => {
    const { app, openai, anthropic } = await start();
    await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "strict" },
      payload: openAIBody("/model openai/gpt-a"),
    });
    openai.always({}, httpError(402, "Your credit balance is too low to access the API."));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "strict" },
      payload: openAIBody("hi"),
    });
    expect(anthropic.calls).toHaveLength(0);
    expect(response.statusCode).toBe(402);
    expect(response.json().error.message).toContain("credit balance is too low");
  });

  it("R-GW-4 R-RA-2: a strict selection whose every profile is cooling down is a 503 with Retry-After, not a 5xx upstream error", async () => {
    const { app, openai, anthropic } = await start();
    await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "pinned" },
      payload: openAIBody("/model openai/gpt-a"),
    });
    openai.always({}, httpError(401, "Incorrect API key provided."));
    const first = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "pinned" },
      payload: openAIBody("hi"),
    });
    expect(first.statusCode).toBe(401);
    const callsAfterFirst = openai.calls.length;
    const second = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "pinned" },
      payload: openAIBody("hi again"),
    });
    expect(openai.calls).toHaveLength(callsAfterFirst);
    expect(anthropic.calls).toHaveLength(0);
    expect(second.statusCode).toBe(503);
    expect(Number(second.headers["retry-after"])).toBeGreaterThan(0);
    expect(second.json().error.message).toMatch(/openai/);
  });

  it("R-GW-5: with client tokens every /v1 call needs a bearer token (401 otherwise)", async () => {
    const { app, openai } = await start({ gateway: { auth: { tokens: ["client-token-123"] } } });
    const missing = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.type).toBe("authentication_error");
    const wrong = await app.inject({
      method: "POST",
      url: "/v1/messages",
      headers: { "x-api-key": "nope" },
      payload: anthropicBody("hi"),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().type).toBe("error");
    expect(openai.calls).toHaveLength(0);
    const ok = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: "Bearer client-token-123" },
      payload: openAIBody("hi"),
    });
    expect(ok.statusCode).toBe(200);
    const models = await app.inject({ method: "GET", url: "/v1/models" });
    expect(models.statusCode).toBe(401);
  });

  it("R-GW-5: admin routes need an admin token; client tokens never open them", async () => {
    const { app } = await start({ gateway: { auth: { tokens: ["client-token-123"], adminTokens: ["admin-token-456"] } } });
    const withClient = await app.inject({ method: "GET", url: "/admin/profiles", headers: { authorization: "Bearer client-token-123" } });
    expect(withClient.statusCode).toBe(401);
    const withAdmin = await app.inject({ method: "GET", url: "/admin/profiles", headers: { authorization: "Bearer admin-token-456" } });
    expect(withAdmin.statusCode).toBe(200);
  });

  it("R-GW-5: without admin tokens admin routes answer only on a loopback-bound gateway", async () => {
    const loopback = await start();
    expect((await loopback.app.inject({ method: "GET", url: "/admin/profiles" })).statusCode).toBe(200);
    await loopback.app.close();
    const exposed = await start({ host: "0.0.0.0", gateway: { auth: { tokens: ["client-token-123"] } } });
    const response = await exposed.app.inject({
      method: "GET",
      url: "/admin/profiles",
      headers: { authorization: "Bearer client-token-123" },
    });
    expect(response.statusCode).toBe(404);
  });

  it("R-GW-5: /healthz stays open while /status needs a token when tokens are set", async () => {
    const { app } = await start({ gateway: { auth: { tokens: ["client-token-123"] } } });
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/status" })).statusCode).toBe(401);
    const authorized = await app.inject({ method: "GET", url: "/status", headers: { authorization: "Bearer client-token-123" } });
    expect(authorized.statusCode).toBe(200);
  });

  it("R-GW-4: an unknown route is a 404 in the dialect's error shape", async () => {
    const { app } = await start();
    const response = await app.inject({ method: "POST", url: "/v1/completions", payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.type).toBe("not_found_error");
  });
});
