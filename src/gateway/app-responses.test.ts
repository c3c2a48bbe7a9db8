/** `POST /v1/responses` on the canonical path (an engine without config-built providers, so no same-wire lane). */
import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../core/notices.js";
import { cut, httpError, success } from "../testing/scripted-provider.js";
import { gatewayPerTest, sseEvents } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

const body = (input: unknown, extra: Record<string, unknown> = {}) => ({ model: "detour", input, ...extra });

describe("gateway Responses route", () => {
  it("R-GW-1: POST /v1/responses answers with a Response naming the model that answered, usage included", async () => {
    const { app, openai } = await start();
    openai.always({}, success("hello there", { usage: { inputTokens: 9, outputTokens: 4, cacheReadTokens: 2 } }));
    const response = await app.inject({ method: "POST", url: "/v1/responses", payload: body("hi", { instructions: "Be brief." }) });
    expect(response.statusCode).toBe(200);
    const json = response.json();
    expect(json).toMatchObject({ object: "response", status: "completed", model: "openai/gpt-a", store: false });
    expect(json.output[0].content[0]).toMatchObject({ type: "output_text", text: "hello there" });
    expect(json.usage).toEqual({
      input_tokens: 9,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 4,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 13,
    });
    expect(response.headers["x-detour-model"]).toBe("openai/gpt-a");
  });

  it("R-NT-2: a failover to the Anthropic model is answered in the Responses shape, streamed, with the notice header", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(429, "rate limited"));
    anthropic.always({}, success("from claude"));
    const response = await app.inject({ method: "POST", url: "/v1/responses", payload: body("hi", { stream: true }) });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/event-stream");
    expect(decodeNoticeHeader(String(response.headers["x-detour-notice"]))).toMatch(/^↪️ Model Fallback: anthropic\/claude-b /);
    const events = sseEvents(response.body);
    expect(events[0]?.event).toBe("response.created");
    expect(events.at(-1)?.event).toBe("response.completed");
    const text = events
      .filter((event) => event.event === "response.output_text.delta")
      .map((event) => JSON.parse(event.data).delta)
      .join("");
    expect(text).toBe("from claude");
    expect(JSON.parse(events.at(-1)?.data ?? "{}").response.model).toBe("anthropic/claude-b");
  });

  it("R-ST-4: a Responses stream cut after the commit is continued on the model's other profile; only the remainder is streamed", async () => {
    const { app, openai } = await start();
    openai.script({ profileId: "openai:a" }, cut("Hello wor"));
    openai.script({ profileId: "openai:b" }, success("Hello world, friend."));
    const response = await app.inject({ method: "POST", url: "/v1/responses", payload: body("hi", { stream: true }) });
    const events = sseEvents(response.body);
    expect(events.at(-1)?.event).toBe("response.completed");
    expect(events.some((event) => event.event === "response.failed")).toBe(false);
    const text = events
      .filter((event) => event.event === "response.output_text.delta")
      .map((event) => JSON.parse(event.data).delta)
      .join("");
    expect(text).toBe("Hello world, friend.");
  });

  it("R-ST-2: with no continuation budget, a cut after the commit ends the stream with response.failed, never response.completed", async () => {
    const { app, openai } = await start({ gateway: { streamContinuations: 0 } });
    openai.script({ profileId: "openai:a" }, cut("partial"));
    const response = await app.inject({ method: "POST", url: "/v1/responses", payload: body("hi", { stream: true }) });
    const events = sseEvents(response.body);
    expect(events.at(-1)?.event).toBe("response.failed");
    expect(JSON.parse(events.at(-1)?.data ?? "{}").response.error.message).toContain("failed after it started");
    expect(events.some((event) => event.event === "response.completed")).toBe(false);
  });

  it("R-GW-3: a slash command sent as the input is answered by the gateway in the Responses shape", async () => {
    const { app, openai } = await start();
    const response = await app.inject({ method: "POST", url: "/v1/responses", payload: body("/status") });
    expect(response.statusCode).toBe(200);
    expect(response.json().model).toBe("detour");
    expect(response.json().output[0].content[0].text).toContain("openai/gpt-a");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-4: a body without model is a 400 naming the path; an input only the Responses API can hold is a 400 without a lane", async () => {
    const { app, openai } = await start();
    const missing = await app.inject({ method: "POST", url: "/v1/responses", payload: { input: "hi" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: "DETOUR_BAD_REQUEST", param: "model" });
    const file = await app.inject({
      method: "POST",
      url: "/v1/responses",
      payload: body([{ role: "user", content: [{ type: "input_file", file_id: "file_1" }] }]),
    });
    expect(file.statusCode).toBe(400);
    expect(file.json().error).toMatchObject({ code: "DETOUR_BAD_REQUEST", param: "input_file" });
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-6: previous_response_id with no Responses provider in the chain is DETOUR_RESPONSE_STATE_UNROUTABLE before any call", async () => {
    const { app, openai, anthropic } = await start();
    const response = await app.inject({ method: "POST", url: "/v1/responses", payload: body("more", { previous_response_id: "resp_1" }) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: "DETOUR_RESPONSE_STATE_UNROUTABLE", param: "previous_response_id" });
    expect(openai.calls).toHaveLength(0);
    expect(anthropic.calls).toHaveLength(0);
  });
});
