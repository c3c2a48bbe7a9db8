import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../core/notices.js";
import { cut, httpError, success } from "../testing/scripted-provider.js";
import { anthropicBody, BASE_CONFIG, gatewayPerTest, openAIBody, sseEvents } from "./__fixtures__/test-gateway.js";

const start = gatewayPerTest();

describe("gateway chat routes", () => {
  it("R-CH-2: x-detour-source: heartbeat runs the configured heartbeat model and leaves the session's override alone", async () => {
    const { app, openai, anthropic } = await start({
      config: {
        ...BASE_CONFIG,
        agents: {
          defaults: {
            model: { primary: "openai/gpt-a", fallbacks: ["anthropic/claude-b"] },
            heartbeat: { model: "anthropic/claude-b" },
            modelFailover: { retrySameProfileOnTimeout: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
          },
        },
      },
    });
    openai.always({}, success("from gpt"));
    anthropic.always({}, success("heartbeat ok"));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-source": "heartbeat", "x-detour-session": "hb" },
      payload: openAIBody("ping", { model: "detour" }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-detour-model"]).toBe("anthropic/claude-b");
    expect(response.headers["x-detour-notice"]).toBeUndefined();
    const session = await app.inject({ method: "GET", url: "/admin/sessions/hb" });
    expect(session.statusCode === 404 || session.json().modelOverride === undefined).toBe(true);
  });

  it("R-GW-1: POST /v1/chat/completions answers in the OpenAI shape with the answering model", async () => {
    const { app, openai } = await start();
    openai.always({}, success("hello there"));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi") });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0].message.content).toBe("hello there");
    expect(body.model).toBe("openai/gpt-a");
    expect(response.headers["x-detour-model"]).toBe("openai/gpt-a");
    expect(response.headers["x-detour-attempts"]).toBe("1");
    expect(response.headers["x-detour-notice"]).toBeUndefined();
  });

  it("R-GW-1: POST /v1/messages answers in the Anthropic shape", async () => {
    const { app, openai } = await start();
    openai.always({}, success("bonjour"));
    const response = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi") });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.type).toBe("message");
    expect(body.content).toEqual([{ type: "text", text: "bonjour" }]);
    expect(body.model).toBe("openai/gpt-a");
  });

  it("R-GW-2: an OpenAI-dialect request fails over to an Anthropic model invisibly except for model and notice", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(503, "overloaded"));
    anthropic.always({}, success("from claude"));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "s1" },
      payload: openAIBody("hi"),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().choices[0].message.content).toBe("from claude");
    expect(response.json().model).toBe("anthropic/claude-b");
    // Both openai keys were tried (a rotation inside the candidate), then anthropic answered.
    expect(openai.calls).toHaveLength(2);
    expect(response.headers["x-detour-attempts"]).toBe("3");
    expect(response.headers["x-detour-profile"]).toBe("anthropic:a");
  });

  it("R-NT-2: the notice rides in x-detour-notice, percent-encoded UTF-8, only on the switching response", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(429, "rate limit exceeded"));
    anthropic.always({}, success("fallback answer"));
    const headers = { "x-detour-session": "s-notice" };
    const first = await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("hi") });
    const encoded = first.headers["x-detour-notice"];
    expect(typeof encoded).toBe("string");
    expect(encoded).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeNoticeHeader(encoded as string)).toContain("↪️ Model Fallback: anthropic/claude-b");
    // The notice is not assistant content.
    expect(first.json().choices[0].message.content).toBe("fallback answer");
    expect(first.json().detour_notice).toBeUndefined();

    const second = await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("again") });
    expect(second.statusCode).toBe(200);
    expect(second.headers["x-detour-notice"]).toBeUndefined();
  });

  it("R-NT-2: with gateway.notices inline the notice is a separate field and a leading stream frame", async () => {
    const { app, openai, anthropic } = await start({ gateway: { notices: "inline" } });
    openai.always({}, httpError(503, "overloaded"));
    anthropic.always({}, success("answer"));
    const plain = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "a" },
      payload: openAIBody("hi"),
    });
    expect(plain.json().detour_notice.text).toContain("Model Fallback");
    expect(plain.json().choices[0].message.content).toBe("answer");

    const streamed = await app.inject({
      method: "POST",
      url: "/v1/messages",
      headers: { "x-detour-session": "b" },
      payload: anthropicBody("hi", { stream: true }),
    });
    const events = sseEvents(streamed.body);
    expect(events[0]?.event).toBe("detour_notice");
    expect(JSON.parse(events[0]?.data ?? "{}").text).toContain("Model Fallback");
    expect(events[1]?.event).toBe("message_start");
    const text = events
      .filter((event) => event.event === "content_block_delta")
      .map((event) => JSON.parse(event.data).delta.text)
      .join("");
    expect(text).toBe("answer");
  });

  it("R-ST-1: a streamed OpenAI answer holds nothing back after commit and ends with [DONE]", async () => {
    const { app, openai } = await start();
    openai.always({}, success("streamed words"));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: openAIBody("hi", { stream: true, stream_options: { include_usage: true } }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/event-stream");
    expect(response.headers["x-detour-model"]).toBe("openai/gpt-a");
    const events = sseEvents(response.body);
    expect(events.at(-1)?.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks.every((chunk) => chunk.model === "openai/gpt-a")).toBe(true);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe("streamed words");
    expect(chunks.some((chunk) => chunk.usage)).toBe(true);
  });

  it("R-ST-1: a failure before the first token fails over before anything is sent", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(500, '{"error":{"type":"server_error","message":"boom"}}'));
    anthropic.always({}, success("second model"));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { stream: true }) });
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-detour-model"]).toBe("anthropic/claude-b");
    expect(response.body).not.toContain('"error"');
  });

  it("R-ST-2: with continuations off, a cut after the commit ends an OpenAI stream with an error chunk and no [DONE]", async () => {
    const { app, openai, store } = await start({ gateway: { streamContinuations: 0 } });
    openai.script({ profileId: "openai:a" }, cut("partial"));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { stream: true }) });
    const events = sseEvents(response.body);
    expect(events.some((event) => event.data === "[DONE]")).toBe(false);
    const last = JSON.parse(events.at(-1)?.data ?? "{}");
    expect(last.error.message).toContain("failed after it started");
    expect(events.some((event) => event.data.includes("partial"))).toBe(true);
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
  });

  it("R-ST-2: with continuations off, a cut after the commit ends an Anthropic stream with event: error", async () => {
    const { app, openai } = await start({ gateway: { streamContinuations: 0 } });
    openai.script({ profileId: "openai:a" }, cut("partial"));
    const response = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi", { stream: true }) });
    const events = sseEvents(response.body);
    expect(events.at(-1)?.event).toBe("error");
    expect(events.some((event) => event.event === "message_stop")).toBe(false);
  });

  it("R-ST-4: (and R-ST-5) a cut after the commit is continued on the model's other profile; only the remainder reaches the client", async () => {
    const { app, openai, anthropic, store } = await start();
    openai.script({ profileId: "openai:a" }, cut("Hello wor"));
    // The continuation restarts the answer from its beginning: the seam trims it to the missing part.
    openai.script({ profileId: "openai:b" }, success("Hello world, friend."));
    const response = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { stream: true }) });
    const events = sseEvents(response.body);
    expect(events.at(-1)?.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks.some((chunk) => chunk.error)).toBe(false);
    expect(chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? "").join("")).toBe("Hello world, friend.");
    // OpenAI does not continue a trailing assistant message: the instructed form went to openai:b.
    const continued = openai.calls.find((call) => call.profileId === "openai:b")?.request;
    expect(continued?.messages.at(-2)).toEqual({ role: "assistant", content: [{ type: "text", text: "Hello wor" }] });
    expect(continued?.messages.at(-1)?.role).toBe("user");
    expect(anthropic.calls).toHaveLength(0);
    // R-ST-5: the cut is on openai:a's record, the rescue on openai:b's; the run counts once, as rescued.
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
    expect((await store.getUsageStats("openai:b"))?.lastUsed).toBeDefined();
    const metrics = (await app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\} 1/);
    expect(metrics).not.toMatch(/detour_requests_total\{agent="main",outcome="failed"\}/);
    expect(metrics).toMatch(/detour_requests_continued_total\{agent="main",outcome="succeeded"\} 1/);
    expect(metrics).toMatch(/detour_stream_continuations_total\{provider="openai",model="gpt-a",outcome="succeeded"\} 1/);
  });

  it("R-ST-4: a continuation on the next model leaves the session's model alone (its notice could no longer be sent)", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, cut("Hello wor"));
    anthropic.always({}, success("Hello world, friend."));
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "s-cont" },
      payload: openAIBody("hi", { stream: true }),
    });
    const events = sseEvents(response.body);
    expect(events.at(-1)?.data).toBe("[DONE]");
    expect(response.headers["x-detour-notice"]).toBeUndefined();
    const session = await app.inject({ method: "GET", url: "/admin/sessions/s-cont" });
    expect(session.statusCode === 404 || session.json().session?.modelOverride === undefined).toBe(true);
    expect(session.statusCode === 404 || session.json().session?.authProfileOverride === undefined).toBe(true);
  });

  it("R-ST-5: (with R-ST-4) when no candidate can continue, the stream ends with the explicit error and the run counts as failed", async () => {
    const { app, openai, anthropic, store } = await start();
    openai.always({}, cut("partial"));
    anthropic.always({}, httpError(503, "overloaded"));
    const response = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi", { stream: true }) });
    const events = sseEvents(response.body);
    expect(events.at(-1)?.event).toBe("error");
    expect(events.some((event) => event.event === "message_stop")).toBe(false);
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
    const metrics = (await app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toMatch(/detour_requests_total\{agent="main",outcome="failed"\} 1/);
    expect(metrics).not.toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\}/);
  });

  it("R-ST-3: the answer names the model that answered and carries only its usage", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(503, "overloaded"));
    anthropic.always({}, success("ok", { usage: { inputTokens: 11, outputTokens: 7 } }));
    const response = await app.inject({ method: "POST", url: "/v1/messages", payload: anthropicBody("hi") });
    const body = response.json();
    expect(body.model).toBe("anthropic/claude-b");
    expect(body.usage).toMatchObject({ input_tokens: 11, output_tokens: 7 });
  });

  it("R-GW-3: routing headers reach the engine (session, fallbacks none, agent by model field)", async () => {
    const { app, openai, anthropic } = await start();
    openai.always({}, httpError(503, "overloaded"));
    anthropic.always({}, success("research agent"));
    const strict = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-fallbacks": "none" },
      payload: openAIBody("hi", { model: "openai/gpt-a" }),
    });
    expect(strict.statusCode).toBe(503);
    expect(anthropic.calls).toHaveLength(0);

    const byAgent = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { model: "research" }) });
    expect(byAgent.statusCode).toBe(200);
    expect(byAgent.headers["x-detour-model"]).toBe("anthropic/claude-b");

    const byAlias = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { model: "claude" }) });
    expect(byAlias.headers["x-detour-model"]).toBe("anthropic/claude-b");
  });

  it("R-GW-3: a bad routing header is a 400 naming it, and nothing reaches a provider", async () => {
    const { app, openai } = await start();
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-source": "weekly" },
      payload: openAIBody("hi"),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.param).toBe("x-detour-source");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-3: /model sets the session's model in-band and later turns use it", async () => {
    const { app, openai, anthropic } = await start();
    const headers = { "x-detour-session": "chat-1" };
    const command = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers,
      payload: openAIBody("/model anthropic/claude-b@anthropic:a"),
    });
    expect(command.statusCode).toBe(200);
    expect(command.json().choices[0].message.content).toContain("anthropic/claude-b");
    expect(command.headers["x-detour-model"]).toBe("detour");
    expect(openai.calls).toHaveLength(0);
    expect(anthropic.calls).toHaveLength(0);

    const next = await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("hello") });
    expect(next.headers["x-detour-model"]).toBe("anthropic/claude-b");
    expect(anthropic.calls[0]?.profileId).toBe("anthropic:a");
  });

  it("R-GW-3: /status, /new and /reset are answered in-band, streamed when asked", async () => {
    const { app, openai } = await start();
    const headers = { "x-detour-session": "chat-2" };
    const status = await app.inject({ method: "POST", url: "/v1/messages", headers, payload: anthropicBody("/status", { stream: true }) });
    const text = sseEvents(status.body)
      .filter((event) => event.event === "content_block_delta")
      .map((event) => JSON.parse(event.data).delta.text)
      .join("");
    expect(text).toContain("Agent: main");
    expect(text).toContain("openai:a");
    expect(sseEvents(status.body).at(-1)?.event).toBe("message_stop");

    const reset = await app.inject({ method: "POST", url: "/v1/chat/completions", headers, payload: openAIBody("/new") });
    expect(reset.json().choices[0].message.content).toContain("Started fresh");
    const noSession = await app.inject({ method: "POST", url: "/v1/chat/completions", payload: openAIBody("/reset") });
    expect(noSession.json().choices[0].message.content).toContain("x-detour-session");
    expect(openai.calls).toHaveLength(0);
  });

  it("R-GW-3: a bad /model argument is answered in-band, not as an HTTP error", async () => {
    const { app } = await start();
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "chat-3" },
      payload: openAIBody("/model anthropic/"),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().choices[0].message.content).toContain('Cannot use model "anthropic/"');
    const spaced = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "x-detour-session": "chat-3" },
      payload: openAIBody("/model not a model"),
    });
    expect(spaced.json().choices[0].message.content).toContain("Usage: /model provider/model");
  });
});
