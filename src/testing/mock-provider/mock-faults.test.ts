import { describe, expect, it } from "vitest";
import {
  authHeaders,
  chatBody,
  jsonText,
  parseSse,
  post,
  readAll,
  readUntil,
  streamFrames,
  streamText,
} from "./__fixtures__/http-helpers.js";
import { ERROR_PRESET_TABLE } from "./error-presets.js";
import { mockPerTest } from "./__fixtures__/mock-per-test.js";
import { startMockProvider, type MockProvider } from "./mock-server.js";
import { splitIntoTokens } from "./reply.js";
import { MOCK_ERROR_PRESETS, MOCK_WIRE_APIS, type MockRuleInput, type MockKeyedWireApi } from "./scenario-schema.js";

type Json = Record<string, any>;

const startMock = mockPerTest();
const start = (rules: MockRuleInput[]) => startMock({ scenario: rules });

const KEY = "sk-fault-test";

function send(server: MockProvider, api: MockKeyedWireApi, stream: boolean, signal?: AbortSignal, model = "fault-model") {
  const { path, body } = chatBody(api, { model, prompt: "tell me something", stream });
  return post(server.url, path, body, authHeaders(api, KEY), signal);
}

/**
 * Starts healthy to learn the answer's tokens (so tests never hard-code the reply), then switches to the
 * fault rules and clears the counts.
 */
async function startAfterHealthyReference(
  api: MockKeyedWireApi,
  rules: MockRuleInput[],
): Promise<{ server: MockProvider; tokens: string[] }> {
  const server = await start([]);
  const response = await send(server, api, false);
  const tokens = splitIntoTokens(jsonText(api, (await response.json()) as Json));
  server.setScenario(rules);
  server.reset();
  return { server, tokens };
}

describe("mock provider error presets: real error bodies per wire format (R-CL-3)", () => {
  for (const preset of MOCK_ERROR_PRESETS) {
    for (const api of MOCK_WIRE_APIS) {
      it(`R-CL-3: ${preset} on ${api} → ${ERROR_PRESET_TABLE[preset].status} with the ${api} error shape`, async () => {
        const server = await start([{ steps: [preset] }]);
        const response = await send(server, api, false);
        const row = ERROR_PRESET_TABLE[preset];
        expect(response.status).toBe(row.status);
        expect(response.headers.get("retry-after")).toBeNull();
        const body = (await response.json()) as Json;
        switch (api) {
          case "openai":
            expect(body).toEqual({
              error: { message: expect.any(String), type: row.openai.type, param: row.openai.param ?? null, code: row.openai.code },
            });
            break;
          case "anthropic":
            expect(body).toEqual({ type: "error", error: { type: row.anthropic.type, message: expect.any(String) } });
            break;
          case "google":
            expect(body).toEqual({ error: { code: row.status, message: expect.any(String), status: row.google.status } });
            break;
          case "ollama":
            expect(body).toEqual({ error: expect.any(String) });
            break;
        }
        expect(JSON.stringify(body)).not.toContain("{model}");
      });
    }
  }

  it("R-CL-3: model-not-found names the requested model", async () => {
    const server = await start([{ steps: ["model-not-found"] }]);
    const body = (await (await send(server, "openai", false)).json()) as Json;
    expect(body.error.message).toContain("fault-model");
  });

  it("R-CL-3: 429 with retryAfterSeconds sends Retry-After and each wire's own reset hint", async () => {
    const server = await start([{ steps: [{ fault: "rate-limit", retryAfterSeconds: 7 }], then: "repeat-last" }]);
    const openai = await send(server, "openai", false);
    expect(openai.headers.get("retry-after")).toBe("7");
    expect(openai.headers.get("retry-after-ms")).toBe("7000");
    expect(openai.headers.get("x-ratelimit-reset-requests")).toBe("7s");
    expect(((await openai.json()) as Json).error.message).toContain("try again in 7s");
    const anthropic = await send(server, "anthropic", false);
    expect(anthropic.headers.get("retry-after")).toBe("7");
    expect(Date.parse(anthropic.headers.get("anthropic-ratelimit-requests-reset") ?? "")).toBeGreaterThan(Date.now());
    const google = (await (await send(server, "google", false)).json()) as Json;
    expect(google.error.details).toEqual([{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }]);
  });

  it("R-CL-3: 429 without Retry-After carries no reset hint at all", async () => {
    const server = await start([{ steps: ["rate-limit"], then: "repeat-last" }]);
    const response = await send(server, "openai", false);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(response.headers.get("retry-after-ms")).toBeNull();
    expect(((await response.json()) as Json).error.message).not.toMatch(/try again/i);
  });

  it("R-CL-3: preset overrides change status and message; custom status steps send their own body and headers", async () => {
    const server = await start([
      {
        steps: [
          { fault: "billing", status: 403, message: "Key limit exceeded" },
          { fault: "status", status: 418, body: { teapot: true }, headers: { "x-custom": "yes" } },
          { fault: "status", status: 502 },
        ],
      },
    ]);
    const first = await send(server, "openai", false);
    expect(first.status).toBe(403);
    expect(((await first.json()) as Json).error).toMatchObject({ message: "Key limit exceeded", code: "insufficient_quota" });
    const second = await send(server, "openai", false);
    expect(second.status).toBe(418);
    expect(second.headers.get("x-custom")).toBe("yes");
    expect(await second.json()).toEqual({ teapot: true });
    const third = await send(server, "anthropic", false);
    expect(third.status).toBe(502);
    expect(await third.json()).toMatchObject({ type: "error", error: { type: "api_error" } });
  });
});

describe("mock provider transport faults (R-CL-3)", () => {
  it("R-CL-3: reset drops the connection before any header", async () => {
    const server = await start([{ steps: ["reset"] }]);
    const failure = await send(server, "openai", false).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as { cause?: { code?: string } }).cause?.code)).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(server.counts().total).toBe(1);
  });

  it("R-CL-3: silence never answers until the client aborts", async () => {
    const server = await start([{ steps: ["silence"] }]);
    const startedAt = Date.now();
    await expect(send(server, "anthropic", true, AbortSignal.timeout(300))).rejects.toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
  });

  it("R-CL-3: close() ends silent and stalled requests at once and never hangs", async () => {
    const server = await startMockProvider({ scenario: [{ steps: ["silence", { fault: "stall", afterTokens: 1 }] }] });
    const silent = send(server, "openai", false).then(
      () => "answered",
      () => "failed",
    );
    const stalled = await send(server, "openai", true);
    const body = readAll(stalled);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    await server.close();
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(await silent).toBe("failed");
    expect((await body).error).toBeDefined();
  });

  for (const api of MOCK_WIRE_APIS) {
    it(`R-CL-3: slow-first-token on ${api} sends headers (and lifecycle frames) at once, content after the delay`, async () => {
      const server = await start([{ steps: [{ fault: "slow-first-token", delayMs: 700 }] }]);
      const startedAt = Date.now();
      const response = await send(server, api, true);
      expect(Date.now() - startedAt).toBeLessThan(600);
      const text = await readUntil(response, (soFar) => streamText(api, soFar) !== "");
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(680);
      if (api === "openai") expect((streamFrames(api, text)[0] as Json).choices[0].delta.role).toBe("assistant");
      if (api === "anthropic") expect(parseSse(text)[0]?.event).toBe("message_start");
    });

    it(`R-CL-3: stream-cut on ${api} delivers exactly N tokens then breaks the connection`, async () => {
      const { server, tokens } = await startAfterHealthyReference(api, [{ steps: [{ fault: "stream-cut", afterTokens: 2 }] }]);
      const { text, error } = await readAll(await send(server, api, true));
      expect(error).toBeDefined();
      expect(streamText(api, text)).toBe(tokens.slice(0, 2).join(""));
    });

    it(`R-CL-3: stall on ${api} stops after N tokens and sends nothing more`, async () => {
      const { server, tokens } = await startAfterHealthyReference(api, [{ steps: [{ fault: "stall", afterTokens: 1 }] }]);
      const controller = new AbortController();
      const response = await send(server, api, true, controller.signal);
      setTimeout(() => controller.abort(), 400);
      const { text, error } = await readAll(response);
      expect(error).toMatchObject({ name: "AbortError" });
      expect(streamText(api, text)).toBe(tokens[0]);
    });

    it(`R-CL-3: malformed-chunk on ${api} injects one unparseable frame and the stream still completes`, async () => {
      const { server, tokens } = await startAfterHealthyReference(api, [{ steps: [{ fault: "malformed-chunk", afterTokens: 1 }] }]);
      const { text, error } = await readAll(await send(server, api, true));
      expect(error).toBeUndefined();
      const frames = streamFrames(api, text) as Json[];
      expect(frames.filter((frame) => typeof frame === "object" && "malformed" in frame)).toHaveLength(1);
      expect(streamText(api, text)).toBe(tokens.join(""));
    });

    it(`R-CL-3: stream-error on ${api} sends N tokens then the wire's in-band error event`, async () => {
      const { server, tokens } = await startAfterHealthyReference(api, [
        { steps: [{ fault: "stream-error", error: "overloaded", afterTokens: 2 }] },
      ]);
      const { text, error } = await readAll(await send(server, api, true));
      expect(error).toBeUndefined();
      expect(streamText(api, text)).toBe(tokens.slice(0, 2).join(""));
      const last = streamFrames(api, text).at(-1) as Json;
      switch (api) {
        case "openai":
          expect(last.error).toMatchObject({ type: "server_error", code: "overloaded" });
          expect(text).not.toContain("[DONE]");
          break;
        case "anthropic":
          expect(parseSse(text).at(-1)?.event).toBe("error");
          expect(last).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
          break;
        case "google":
          expect(last.error).toMatchObject({ code: 529, status: "UNAVAILABLE" });
          break;
        case "ollama":
          expect(typeof last.error).toBe("string");
          break;
      }
    });
  }

  it("R-CL-3: missing-done on OpenAI finishes with finish_reason and usage but no [DONE]", async () => {
    const server = await start([{ steps: ["missing-done"] }]);
    const { text, error } = await readAll(await send(server, "openai", true));
    expect(error).toBeUndefined();
    const frames = streamFrames("openai", text) as Json[];
    expect(frames.some((frame) => frame.choices?.[0]?.finish_reason === "stop")).toBe(true);
    expect(frames.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
    expect(text).not.toContain("[DONE]");
  });

  it("R-CL-3: missing-done on Anthropic sends message_delta with stop_reason but no message_stop", async () => {
    const server = await start([{ steps: ["missing-done"] }]);
    const { text } = await readAll(await send(server, "anthropic", true));
    const events = parseSse(text).map((event) => event.event);
    expect(events.at(-1)).toBe("message_delta");
    expect(events).not.toContain("message_stop");
  });

  it("R-CL-3: an in-band error before any token (afterTokens 0) follows only the lifecycle frames", async () => {
    const server = await start([{ steps: ["stream-error"] }]);
    const { text } = await readAll(await send(server, "anthropic", true));
    expect(parseSse(text).map((event) => event.event)).toEqual(["message_start", "content_block_start", "ping", "error"]);
  });

  it("R-CL-3: non-streamed requests get the JSON equivalents of stream faults", async () => {
    const server = await start([
      {
        steps: [
          { fault: "stream-cut", afterTokens: 1 },
          "malformed-chunk",
          { fault: "stream-error", error: "rate-limit" },
          { fault: "slow-first-token", delayMs: 200 },
        ],
      },
    ]);
    const cut = await readAll(await send(server, "openai", false));
    expect(cut.error).toBeDefined();
    const malformed = await send(server, "openai", false);
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow(SyntaxError);
    expect((await send(server, "openai", false)).status).toBe(429);
    const startedAt = Date.now();
    expect((await send(server, "openai", false)).status).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
  });

  it("R-CL-3: streamed tool calls arrive as several deltas (OpenAI with index, Anthropic input_json_delta)", async () => {
    const server = await start([]);
    const openai = chatBody("openai", { model: "m", prompt: "call get_weather", stream: true, tool: true });
    const openaiFrames = streamFrames("openai", await (await post(server.url, openai.path, openai.body)).text()) as Json[];
    const toolDeltas = openaiFrames.flatMap((frame) => frame.choices?.[0]?.delta?.tool_calls ?? []);
    expect(toolDeltas[0]).toMatchObject({ index: 0, type: "function", function: { name: "get_weather" } });
    expect(JSON.parse(toolDeltas.map((delta: Json) => delta.function.arguments).join(""))).toEqual({ city: "mock-city", days: 1 });
    expect(toolDeltas.length).toBeGreaterThan(2);
    const anthropic = chatBody("anthropic", { model: "m", prompt: "call get_weather", stream: true, tool: true });
    const events = streamFrames("anthropic", await (await post(server.url, anthropic.path, anthropic.body)).text()) as Json[];
    const partials = events.filter((event) => event.delta?.type === "input_json_delta").map((event) => event.delta.partial_json);
    expect(JSON.parse(partials.join(""))).toEqual({ city: "mock-city", days: 1 });
    expect(events.find((event) => event.type === "message_delta")?.delta.stop_reason).toBe("tool_use");
  });
});
