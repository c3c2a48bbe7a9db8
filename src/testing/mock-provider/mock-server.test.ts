import { describe, expect, it } from "vitest";
import { authHeaders, chatBody, jsonText, post, sseJson, streamText } from "./__fixtures__/http-helpers.js";
import { MockProviderPortInUseError } from "./mock-errors.js";
import { mockPerTest } from "./__fixtures__/mock-per-test.js";
import { startMockProvider } from "./mock-server.js";
import { fingerprintKey } from "./reply.js";
import { MOCK_WIRE_APIS, type MockKeyedWireApi } from "./scenario-schema.js";

const start = mockPerTest();

type Json = Record<string, any>;

describe("mock provider: healthy answers on every wire format (R-CL-3)", () => {
  for (const api of MOCK_WIRE_APIS) {
    it(`R-CL-3: ${api} JSON answer names the model and the key fingerprint, never the key`, async () => {
      const server = await start();
      const { path, body } = chatBody(api, { model: "model-a", prompt: "hello mock" });
      const response = await post(server.url, path, body, authHeaders(api, "sk-secret-123"));
      expect(response.status).toBe(200);
      const raw = await response.text();
      expect(raw).not.toContain("sk-secret-123");
      const text = jsonText(api, JSON.parse(raw) as Json);
      expect(text).toContain("model-a");
      expect(text).toContain(fingerprintKey("sk-secret-123"));
      expect(text).toContain("hello mock");
    });

    it(`R-CL-3: ${api} streamed answer carries the same text as the JSON answer`, async () => {
      const server = await start();
      const plain = chatBody(api, { model: "model-b", prompt: "stream me" });
      const streamed = chatBody(api, { model: "model-b", prompt: "stream me", stream: true });
      const headers = authHeaders(api, "sk-a");
      const jsonAnswer = jsonText(api, (await (await post(server.url, plain.path, plain.body, headers)).json()) as Json);
      const response = await post(server.url, streamed.path, streamed.body, headers);
      expect(response.headers.get("content-type")).toMatch(api === "ollama" ? /ndjson/ : /event-stream/);
      expect(streamText(api, await response.text())).toBe(jsonAnswer);
    });

    it(`R-CL-3: ${api} answers with a tool call when tools are offered and the user asks for one`, async () => {
      const server = await start();
      const { path, body } = chatBody(api, { model: "m", prompt: "please use a tool", tool: true });
      const answer = (await (await post(server.url, path, body, authHeaders(api, "k"))).json()) as Json;
      const expectedArgs = { city: "mock-city", days: 1 };
      switch (api) {
        case "openai":
          expect(answer.choices[0].finish_reason).toBe("tool_calls");
          expect(answer.choices[0].message.tool_calls[0].function.name).toBe("get_weather");
          expect(JSON.parse(answer.choices[0].message.tool_calls[0].function.arguments)).toEqual(expectedArgs);
          break;
        case "anthropic":
          expect(answer.stop_reason).toBe("tool_use");
          expect(answer.content[0]).toMatchObject({ type: "tool_use", name: "get_weather", input: expectedArgs });
          break;
        case "google":
          expect(answer.candidates[0].content.parts[0].functionCall).toEqual({ name: "get_weather", args: expectedArgs });
          break;
        case "ollama":
          expect(answer.message.tool_calls[0].function).toEqual({ name: "get_weather", arguments: expectedArgs });
          break;
      }
    });
  }

  it("R-CL-3: without the trigger word the offered tools are not called", async () => {
    const server = await start();
    const { path, body } = chatBody("openai", { model: "m", prompt: "just talk", tool: true });
    const answer = (await (await post(server.url, path, body)).json()) as Json;
    expect(answer.choices[0].finish_reason).toBe("stop");
    expect(answer.choices[0].message.tool_calls).toBeUndefined();
  });

  it("R-CL-3: a conversation ending in a tool result gets a text answer about the result", async () => {
    const server = await start();
    const answer = (await (
      await post(server.url, "/v1/chat/completions", {
        model: "m",
        messages: [
          { role: "user", content: "use the tool" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
          },
          { role: "tool", tool_call_id: "c1", content: "sunny, 21C" },
        ],
        tools: [{ type: "function", function: { name: "get_weather", parameters: {} } }],
      })
    ).json()) as Json;
    expect(answer.choices[0].finish_reason).toBe("stop");
    expect(answer.choices[0].message.content).toContain("sunny, 21C");
  });

  it("R-CL-3: usage numbers are consistent across formats and grow with the prompt", async () => {
    const server = await start();
    const short = (await (
      await post(server.url, "/v1/chat/completions", chatBody("openai", { model: "m", prompt: "hi" }).body)
    ).json()) as Json;
    const long = (await (
      await post(server.url, "/v1/chat/completions", chatBody("openai", { model: "m", prompt: "hi ".repeat(200) }).body)
    ).json()) as Json;
    expect(short.usage.total_tokens).toBe(short.usage.prompt_tokens + short.usage.completion_tokens);
    expect(long.usage.prompt_tokens).toBeGreaterThan(short.usage.prompt_tokens);
    expect(short.usage.completion_tokens).toBeGreaterThan(0);
  });

  it("R-CL-3: OpenAI streams start with the role delta, end with [DONE] and include usage when asked", async () => {
    const server = await start();
    const { path, body } = chatBody("openai", { model: "m", prompt: "x", stream: true });
    const events = sseJson(await (await post(server.url, path, body)).text()) as Json[];
    expect(events[0]?.choices[0].delta.role).toBe("assistant");
    expect(events.at(-1)).toBe("[DONE]");
    const usageChunk = events.at(-2) as Json;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBeGreaterThan(0);
    expect((events.at(-3) as Json).choices[0].finish_reason).toBe("stop");
  });

  it("R-CL-3: Anthropic streams follow the documented event order", async () => {
    const server = await start();
    const { path, body } = chatBody("anthropic", { model: "m", prompt: "x", stream: true });
    const types = (sseJson(await (await post(server.url, path, body)).text()) as Json[]).map((event) => event.type);
    expect(types[0]).toBe("message_start");
    expect(types[1]).toBe("content_block_start");
    expect(types.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
  });

  it("R-CL-3: Google JSON body errors and missing alt=sse are answered in Google's error shape", async () => {
    const server = await start();
    const response = await post(server.url, "/v1beta/models/g:streamGenerateContent", { contents: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  });

  it("R-CL-3: invalid JSON gets a 400 in the wire's error shape and consumes no scripted step", async () => {
    const server = await start({ scenario: [{ steps: ["rate-limit"] }] });
    const bad = await post(server.url, "/v1/messages", "{not json", { "x-api-key": "k" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const next = await post(server.url, "/v1/messages", chatBody("anthropic", { model: "m", prompt: "x" }).body);
    expect(next.status).toBe(429);
  });

  it("lists models in the OpenAI, Anthropic, Google and Ollama shapes", async () => {
    const server = await start({ models: ["alpha", "beta"] });
    const openai = (await (await fetch(`${server.url}/v1/models`)).json()) as Json;
    expect(openai.data.map((model: Json) => model.id)).toEqual(["alpha", "beta"]);
    const anthropic = (await (await fetch(`${server.url}/v1/models`, { headers: { "anthropic-version": "2023-06-01" } })).json()) as Json;
    expect(anthropic.data[0]).toMatchObject({ type: "model", id: "alpha" });
    const google = (await (await fetch(`${server.url}/v1beta/models`)).json()) as Json;
    expect(google.models[1].name).toBe("models/beta");
    const ollama = (await (await fetch(`${server.url}/api/tags`)).json()) as Json;
    expect(ollama.models[0].name).toBe("alpha");
    expect(server.counts()).toMatchObject({ total: 0, modelListings: 4 });
  });

  it("answers unknown paths with a 404 that points to the docs", async () => {
    const server = await start();
    const response = await post(server.url, "/v2/other", {});
    expect(response.status).toBe(404);
    expect(JSON.stringify(await response.json())).toContain("docs/mock-provider.md");
  });

  it("refuses to bind anything but loopback", async () => {
    await expect(startMockProvider({ host: "0.0.0.0" })).rejects.toMatchObject({ code: "DETOUR_MOCK_SCENARIO_INVALID" });
  });
});

describe("mock provider: counting, recording and per-key/per-model scripts (R-CL-3)", () => {
  it("R-CL-3: counts every request by key, model and key+model", async () => {
    const server = await start();
    const send = (api: MockKeyedWireApi, key: string | undefined, model: string) => {
      const { path, body } = chatBody(api, { model, prompt: "x" });
      return post(server.url, path, body, key === undefined ? {} : authHeaders(api, key));
    };
    await send("openai", "sk-a", "gpt-x");
    await send("openai", "sk-a", "gpt-y");
    await send("anthropic", "sk-b", "claude-x");
    await send("google", "g-key", "gem-x");
    await send("ollama", undefined, "llama-x");
    const counts = server.counts();
    expect(counts.total).toBe(5);
    expect(counts.byKey).toEqual({ "sk-a": 2, "sk-b": 1, "g-key": 1, "(no key)": 1 });
    expect(counts.byModel).toEqual({ "gpt-x": 1, "gpt-y": 1, "claude-x": 1, "gem-x": 1, "llama-x": 1 });
    expect(counts.byKeyModel["sk-a"]).toEqual({ "gpt-x": 1, "gpt-y": 1 });
  });

  it("R-CL-3: Google's ?key= query credential is counted and stripped from recordings", async () => {
    const server = await start();
    const { path, body } = chatBody("google", { model: "gem", prompt: "x" });
    await post(server.url, `${path}?key=query-secret`, body);
    expect(server.counts().byKey).toEqual({ "query-secret": 1 });
    const [recorded] = server.requests();
    expect(recorded?.path).toBe("/v1beta/models/gem:generateContent");
    expect(JSON.stringify(recorded)).not.toContain("query-secret");
  });

  it("R-CL-3: recorded requests keep the body but no credential headers", async () => {
    const server = await start();
    const { path, body } = chatBody("anthropic", { model: "claude", prompt: "remember me" });
    await post(server.url, path, body, { ...authHeaders("anthropic", "sk-ant-secret"), authorization: "Bearer sk-other" });
    const [recorded] = server.requests();
    expect(recorded).toMatchObject({ api: "anthropic", model: "claude", stream: false, fault: "ok", body });
    expect(recorded?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(JSON.stringify(recorded)).not.toMatch(/sk-ant-secret|sk-other/);
  });

  it("R-CL-3: keeps only the most recent requests", async () => {
    const server = await start({ recordLimit: 2 });
    for (const prompt of ["one", "two", "three"]) {
      await post(server.url, "/v1/chat/completions", chatBody("openai", { model: "m", prompt }).body);
    }
    expect(server.requests().map((request) => request.sequence)).toEqual([2, 3]);
  });

  it("R-CL-3: faults are scripted per key, per model and per API, first matching rule wins", async () => {
    const server = await start({
      scenario: {
        rules: [
          { match: { key: "sk-bad" }, steps: ["revoked-key"], then: "repeat-last" },
          { match: { model: "claude-*", api: "anthropic" }, steps: ["overloaded"], then: "repeat-last" },
        ],
      },
    });
    const status = async (api: MockKeyedWireApi, key: string, model: string) => {
      const { path, body } = chatBody(api, { model, prompt: "x" });
      return (await post(server.url, path, body, authHeaders(api, key))).status;
    };
    expect(await status("openai", "sk-bad", "gpt")).toBe(401);
    expect(await status("openai", "sk-good", "gpt")).toBe(200);
    expect(await status("anthropic", "sk-good", "claude-3")).toBe(529);
    expect(await status("anthropic", "sk-bad", "claude-3")).toBe(401);
    expect(await status("openai", "sk-good", "claude-3")).toBe(200);
    expect(server.requests().map((request) => request.fault)).toEqual(["revoked-key", "ok", "overloaded", "revoked-key", "ok"]);
  });

  it("R-CL-3: fail N times then succeed, and sticky faults repeat", async () => {
    const server = await start({
      scenario: [
        { match: { model: "flaky" }, steps: [{ fault: "server-error", times: 2 }] },
        { match: { model: "sticky" }, steps: ["rate-limit", "billing"], then: "repeat-last" },
      ],
    });
    const status = async (model: string) =>
      (await post(server.url, "/v1/chat/completions", chatBody("openai", { model, prompt: "x" }).body)).status;
    expect([await status("flaky"), await status("flaky"), await status("flaky")]).toEqual([500, 500, 200]);
    expect([await status("sticky"), await status("sticky"), await status("sticky")]).toEqual([429, 402, 402]);
  });

  it("R-CL-3: reset() clears counts and rewinds scripts; setScenario() swaps the script", async () => {
    const server = await start({ scenario: "flaky" });
    const status = async () =>
      (await post(server.url, "/v1/chat/completions", chatBody("openai", { model: "m", prompt: "x" }).body)).status;
    expect([await status(), await status(), await status()]).toEqual([500, 500, 200]);
    server.reset();
    expect(server.counts().total).toBe(0);
    expect(server.requests()).toEqual([]);
    expect(await status()).toBe(500);
    server.setScenario("billing");
    expect(await status()).toBe(402);
    server.setScenario("healthy");
    expect(await status()).toBe(200);
    expect(() => server.setScenario("no-such-scenario")).toThrow(/Known scenarios: .*rate-limited/);
    expect(() => server.setScenario(JSON.parse('[{ "steps": [{ "fault": "stall" }] }]'))).toThrow(/\[0\]\.steps\[0\]\.afterTokens/);
  });
});

describe("mock provider: embeddings and token counts (R-CL-3)", () => {
  it("R-CL-3: OpenAI embeddings are deterministic per model and text, in float or base64, with the asked dimensions", async () => {
    const { mockEmbedding } = await import("./mock-embeddings.js");
    const { vectorFromBase64 } = await import("../../wire/openai-embeddings/vectors.js");
    const server = await start();
    const headers = authHeaders("openai", "sk-embed");
    const float = (await (
      await post(server.url, "/v1/embeddings", { model: "emb", input: ["a", "b"], dimensions: 3 }, headers)
    ).json()) as Json;
    expect(float.data.map((item: Json) => item.embedding)).toEqual([mockEmbedding("emb", "a", 3), mockEmbedding("emb", "b", 3)]);
    expect(Math.hypot(...(float.data[0].embedding as number[]))).toBeCloseTo(1, 5);
    const base64 = (await (
      await post(server.url, "/v1/embeddings", { model: "emb", input: "a", encoding_format: "base64" }, headers)
    ).json()) as Json;
    expect(vectorFromBase64(base64.data[0].embedding as string)).toEqual(mockEmbedding("emb", "a"));
    expect(base64.usage).toEqual({ prompt_tokens: 1, total_tokens: 1 });
    const ollama = (await (await post(server.url, "/api/embed", { model: "emb", input: "a" }, {})).json()) as Json;
    expect(ollama.embeddings).toEqual([mockEmbedding("emb", "a")]);
  });

  it("R-CL-3: embeddings and count_tokens take the scenario's faults in their wire's error shape", async () => {
    const server = await start({ scenario: [{ steps: ["rate-limit", "ok"] }] });
    const limited = await post(server.url, "/v1/embeddings", { model: "emb", input: "a" }, authHeaders("openai", "sk-a"));
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Json).error.type).toBeDefined();
    const counted = await post(
      server.url,
      "/v1/messages/count_tokens",
      { model: "claude", messages: [{ role: "user", content: "count these words please" }] },
      authHeaders("anthropic", "sk-b"),
    );
    expect(counted.status).toBe(200);
    expect(await counted.json()).toEqual({ input_tokens: Math.ceil("count these words please".length / 4) });
    const bad = await post(server.url, "/v1/embeddings", { model: "emb", input: 7 }, authHeaders("openai", "sk-a"));
    expect(bad.status).toBe(400);
  });
});

describe("mock provider: a port already in use", () => {
  it("rejects with MockProviderPortInUseError naming host and port and what to do", async () => {
    const first = await start();
    const error = await startMockProvider({ port: first.port }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockProviderPortInUseError);
    expect(error).toMatchObject({ code: "DETOUR_MOCK_PORT_IN_USE", host: "127.0.0.1", port: first.port });
    expect((error as Error).message).toContain(`Port ${first.port} on 127.0.0.1 is already in use`);
    expect((error as Error).message).toContain("--port <port>");
  });
});
