import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../../core/notices.js";
import { httpError, success } from "../../testing/scripted-provider.js";
import { gatewayPerTest, openAIBody } from "../__fixtures__/test-gateway.js";

const start = gatewayPerTest();

/** The sum of every `detour_fallbacks_total` series. */
function fallbacksTotal(metrics: string): number {
  return [...metrics.matchAll(/^detour_fallbacks_total\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

describe("GET /dashboard/activity", () => {
  it("R-NT-1 a return to the selected model (the cleared notice) is not counted as a fallback, as detour_fallbacks_total does not count it", async () => {
    const { app, openai, anthropic, clock } = await start();
    const headers = { "x-detour-session": "s-return" };
    openai.always({}, httpError(429, "rate limit exceeded"));
    anthropic.always({}, success("from claude"));
    const moved = await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("hi") });
    expect(decodeNoticeHeader(String(moved.headers["x-detour-notice"]))).toContain("Model Fallback: anthropic/claude-b");

    // Five minutes later the selected model is probed, answers, and the session returns to it.
    openai.always({}, success("from gpt"));
    await clock.advanceAsync(5 * 60_000 + 1_000);
    const back = await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("again") });
    expect(back.headers["x-detour-model"]).toBe("openai/gpt-a");
    expect(decodeNoticeHeader(String(back.headers["x-detour-notice"]))).toContain("Model Fallback cleared: openai/gpt-a");

    const activity = (await app.inject({ method: "GET", url: "/dashboard/activity" })).json();
    const metrics = (await app.inject({ method: "GET", url: "/metrics" })).body;
    expect(fallbacksTotal(metrics)).toBe(1);
    expect(activity.totals.fallbacks).toBe(1);
    expect(activity.totals.requests).toBe(2);
  });

  it("R-OB-3 every move to a fallback counts once in the dashboard and in detour_fallbacks_total, also when the run moves twice", async () => {
    const { app, openai, anthropic } = await start({
      config: {
        agents: {
          defaults: {
            model: { primary: "openai/gpt-a", fallbacks: ["openai/gpt-c", "anthropic/claude-b"] },
            modelFailover: {
              retrySameProfileOnTimeout: 0,
              retrySameProfileOnServerError: 0,
              shortWaitSeconds: 0,
              waitForCooldownMaxSeconds: 0,
            },
          },
        },
        state: { backend: "memory" },
      },
    });
    openai.always(
      {},
      httpError(400, '{"error":{"type":"invalid_request_error","code":"model_not_found","message":"The model does not exist"}}'),
    );
    anthropic.always({}, success("from claude"));
    const answered = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(answered.headers["x-detour-model"]).toBe("anthropic/claude-b");
    const activity = (await app.inject({ method: "GET", url: "/dashboard/activity" })).json();
    const metrics = (await app.inject({ method: "GET", url: "/metrics" })).body;
    expect(fallbacksTotal(metrics)).toBe(2);
    expect(activity.totals.fallbacks).toBe(fallbacksTotal(metrics));
  });

  it("R-GW-8 models the configuration does not name are shown by name up to a bound, the rest as other models", async () => {
    const { app, openai } = await start();
    openai.always({}, success("ok"));
    for (let index = 1; index <= 14; index += 1) {
      const answered = await app.inject({
        method: "POST",
        url: "/v1/chat/completions",
        payload: openAIBody("hi", { model: `openai/unlisted-${index}` }),
      });
      expect(answered.statusCode).toBe(200);
    }
    const activity = (await app.inject({ method: "GET", url: "/dashboard/activity" })).json();
    const labels = activity.models.map((model: { model: string }) => model.model);
    expect(labels).toContain("openai/unlisted-1");
    expect(labels).toContain("openai/unlisted-12");
    expect(labels).not.toContain("openai/unlisted-13");
    expect(activity.models.find((model: { model: string }) => model.model === "other models").requests).toBe(2);
  });

  it("R-GW-1 the dashboard has an icon: GET /favicon.ico answers an SVG without a token, where the page itself needs one", async () => {
    const { app } = await start({ gateway: { auth: { tokens: ["client-token-for-icon"] } } });
    const icon = await app.inject({ method: "GET", url: "/favicon.ico" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toContain("image/svg+xml");
    expect(icon.body).toMatch(/^<svg /);
    expect((await app.inject({ method: "GET", url: "/" })).statusCode).toBe(401);
  });
});
