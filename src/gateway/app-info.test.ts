import { describe, expect, it } from "vitest";
import { httpError, success } from "../testing/scripted-provider.js";
import { TEST_SECRETS } from "../engine/__fixtures__/scripted-detour.js";
import { gatewayPerTest, openAIBody } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

const R_AP_4_KEYS = new Set([
  "lastUsed",
  "errorCount",
  "failureCounts",
  "lastFailureAt",
  "cooldownUntil",
  "cooldownReason",
  "cooldownModel",
  "disabledUntil",
  "disabledReason",
  "blockedUntil",
  "blockedReason",
  "blockedModel",
]);

describe("gateway info and admin routes", () => {
  it("R-GW-1: /healthz, /v1/models (both dialects) and the status page answer", async () => {
    const { app } = await start();
    expect((await app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({ status: "ok" });

    const models = (await app.inject({ method: "GET", url: "/v1/models" })).json();
    const ids = models.data.map((model: { id: string }) => model.id);
    expect(models.object).toBe("list");
    expect(ids).toEqual(expect.arrayContaining(["detour", "research", "openai/gpt-a", "anthropic/claude-b", "claude"]));
    const anthropicModels = (await app.inject({ method: "GET", url: "/v1/models", headers: { "anthropic-version": "2023-06-01" } })).json();
    expect(anthropicModels.data[0]).toMatchObject({ type: "model", id: "detour" });
    expect(anthropicModels.has_more).toBe(false);

    const page = await app.inject({ method: "GET", url: "/" });
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("<h1>Detour</h1>");
    expect(page.body).toContain("openai:a");
    // One inline script, allowed by its nonce; nothing loaded from elsewhere (the icon is inline data).
    const nonce = /<script nonce="([^"]+)">/.exec(page.body)?.[1];
    expect(nonce).toBeDefined();
    expect(page.headers["content-security-policy"]).toContain(`script-src 'nonce-${nonce}'`);
    expect(page.body).not.toMatch(
      /<link(?! rel="icon" type="image\/svg\+xml" href="data:)|<script[^>]+src=|https?:\/\/(?!127|www\.w3\.org\/2000\/svg)/,
    );
  });

  it("R-GW-1: GET /status lists profiles with usageStats and usableNow, and sessions", async () => {
    const { app, openai } = await start();
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    openai.always({ profileId: "openai:b" }, success("ok"));
    await app.inject({ method: "POST", url: "/v1/chat/completions", headers: { "x-detour-session": "s1" }, payload: openAIBody("hi") });
    const status = (await app.inject({ method: "GET", url: "/status" })).json();
    expect(status.agentId).toBe("main");
    const limited = status.profiles.find((profile: { id: string }) => profile.id === "openai:a");
    expect(limited).toMatchObject({ provider: "openai", type: "api_key", usableNow: false, unusableReason: "rate_limit" });
    expect(limited.usageStats.cooldownReason).toBe("rate_limit");
    expect(status.profiles.find((profile: { id: string }) => profile.id === "openai:b").usableNow).toBe(true);
    expect(Array.isArray(status.sessions)).toBe(true);
  });

  it("R-GW-1: GET /admin/profiles shows exactly id, provider, type, usableNow and R-AP-4 usageStats, never secrets", async () => {
    const { app, openai } = await start();
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    const response = await app.inject({ method: "GET", url: "/admin/profiles" });
    const body = response.json();
    for (const profile of body.profiles) {
      expect(Object.keys(profile).sort()).toEqual(["id", "provider", "type", "usableNow", "usageStats"]);
      for (const key of Object.keys(profile.usageStats)) expect(R_AP_4_KEYS.has(key)).toBe(true);
    }
    for (const secret of Object.values(TEST_SECRETS)) expect(response.body).not.toContain(secret);
  });

  it("R-GW-1: POST /admin/profiles/:id/reset clears the profile's windows at once", async () => {
    const { app, openai, store } = await start();
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect((await store.getUsageStats("openai:a"))?.cooldownUntil).toBeDefined();
    const response = await app.inject({ method: "POST", url: "/admin/profiles/openai:a/reset" });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile.usableNow).toBe(true);
    expect((await store.getUsageStats("openai:a"))?.cooldownUntil).toBeUndefined();
    expect((await app.inject({ method: "POST", url: "/admin/profiles/openai:nobody/reset" })).statusCode).toBe(404);
  });

  it("R-GW-1: admin sessions can be read, patched and reset", async () => {
    const { app } = await start();
    expect((await app.inject({ method: "GET", url: "/admin/sessions/s9" })).statusCode).toBe(404);
    const patched = await app.inject({
      method: "PATCH",
      url: "/admin/sessions/s9",
      payload: { model: "anthropic/claude-b", profile: "anthropic:a" },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().session).toMatchObject({ selectedModel: "anthropic/claude-b", modelOverrideSource: "user" });
    const read = await app.inject({ method: "GET", url: "/admin/sessions/s9" });
    expect(read.json().session.authProfileOverride).toBe("anthropic:a");
    const bad = await app.inject({ method: "PATCH", url: "/admin/sessions/s9", payload: { model: 42 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.param).toBe("model");
    const reset = await app.inject({ method: "POST", url: "/admin/sessions/s9/reset" });
    expect(reset.statusCode).toBe(200);
    // A user's choice survives /reset (R-SO-3).
    expect(reset.json().session.selectedModel).toBe("anthropic/claude-b");
  });

  it("R-OB-3: /metrics exposes requests, attempts, fallbacks, rotations, profile states and latency histograms", async () => {
    const { app, openai, anthropic } = await start();
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    openai.script({ profileId: "openai:b" }, httpError(429, "rate limit exceeded"));
    anthropic.always({}, success("ok"));
    await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { stream: true }) });
    const response = await app.inject({ method: "GET", url: "/metrics" });
    expect(response.headers["content-type"]).toContain("text/plain");
    const text = response.body;
    expect(text).toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\} 2/);
    expect(text).toMatch(/detour_attempts_total\{provider="openai",model="gpt-a",reason="rate_limit"\} 2/);
    expect(text).toMatch(
      /detour_fallbacks_total\{agent="main",from_model="openai\/gpt-a",to_model="anthropic\/claude-b",reason="rate_limit"\} 1/,
    );
    expect(text).toMatch(/detour_profile_rotations_total\{provider="openai",reason="rate_limit"\} 1/);
    // The second request probed the cooling primary (R-FB-3), which answered and cleared one profile.
    expect(text).toMatch(/detour_profiles\{provider="openai",state="cooldown"\} 1/);
    expect(text).toMatch(/detour_profiles\{provider="openai",state="usable"\} 1/);
    expect(text).toMatch(/detour_profiles\{provider="anthropic",state="usable"\} 1/);
    expect(text).toContain("detour_upstream_latency_seconds_bucket");
    expect(text).toMatch(/detour_gateway_overhead_seconds_count\{endpoint="openai-chat"\} 2/);
    expect(text).toMatch(/detour_time_to_first_token_seconds_count\{provider="openai",model="gpt-a"\} 1/);
    for (const secret of Object.values(TEST_SECRETS)) expect(text).not.toContain(secret);
  });
});
