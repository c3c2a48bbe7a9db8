/**
 * SPEC R-LB-1 with the real `ai` package and the real `@ai-sdk/openai` / `@ai-sdk/anthropic` providers,
 * pointed at Detour's mock provider on loopback.
 */
import { Output, generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SHARED_REDIS_URL, deleteKeysWithPrefix, uniquePrefix } from "../../test/state/helpers/redis.js";
import { createDetourModel } from "./index.js";
import { anthropicWithKey, callsPerRule, keyRule, mockPerTest, openaiWithKey } from "./__fixtures__/mock-models.js";

/** No waiting in tests: no backoff between overloaded keys, no waiting for a cooldown to pass. */
const fast = {
  auth: { cooldowns: { overloadedBackoffMs: 0 } },
  agents: { defaults: { modelFailover: { waitForCooldownMaxSeconds: 0 } } },
};

describe("R-LB-1 generateText through createDetourModel", () => {
  const env = mockPerTest();

  it("R-LB-1 generateText rotates to the next key on a 429 and keeps the cooled key out of the next call", async () => {
    const mock = await env.start({
      rules: [keyRule("sk-a", ["rate-limit"], { then: "repeat-last" }), keyRule("sk-b", ["ok"], { then: "ok" })],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), openaiWithKey(mock, "sk-b").chat("mock-gpt")],
        config: fast,
      }),
    );
    const first = await generateText({ model, prompt: "hello" });
    expect(first.text).toContain("mock-gpt");
    const detour = first.providerMetadata?.detour as Record<string, unknown>;
    expect(detour).toMatchObject({
      provider: "openai",
      model: "mock-gpt",
      profileId: "openai:2",
      attempts: [{ provider: "openai", model: "mock-gpt", profileId: "openai:1", reason: "rate_limit", status: 429 }],
    });
    const second = await generateText({ model, prompt: "hello again" });
    expect(second.providerMetadata?.detour).toMatchObject({ profileId: "openai:2", attempts: [] });
    expect(callsPerRule(mock)).toEqual({ "sk-a": 1, "sk-b": 2 });
  });

  it("R-LB-1 generateText falls back to another provider on a 529 from every key, with a notice in metadata and the callback", async () => {
    const mock = await env.start({
      rules: [
        keyRule("sk-a", ["overloaded"], { then: "repeat-last" }),
        keyRule("sk-b", ["overloaded"], { then: "repeat-last" }),
        keyRule("sk-ant", ["ok"]),
      ],
    });
    const notices: string[] = [];
    const model = env.track(
      createDetourModel({
        candidates: [
          openaiWithKey(mock, "sk-a").chat("mock-gpt"),
          openaiWithKey(mock, "sk-b").chat("mock-gpt"),
          anthropicWithKey(mock, "sk-ant")("mock-claude"),
        ],
        config: fast,
        onNotice: (notice) => notices.push(notice),
      }),
    );
    const result = await generateText({ model, prompt: "hello" });
    expect(result.text).toContain("mock-claude");
    const detour = result.providerMetadata?.detour as { provider: string; profileId: string; notice?: string; attempts: unknown[] };
    expect(detour.provider).toBe("anthropic");
    expect(detour.profileId).toBe("anthropic:1");
    expect(detour.attempts).toEqual([
      { provider: "openai", model: "mock-gpt", profileId: "openai:1", reason: "overloaded", status: 529 },
      { provider: "openai", model: "mock-gpt", profileId: "openai:2", reason: "overloaded", status: 529 },
    ]);
    expect(detour.notice).toMatch(/anthropic\/mock-claude/);
    expect(notices).toEqual([detour.notice]);
  });

  it("R-LB-1 usage reaches the app unchanged, and the answer is priced and charged to the key that gave it", async () => {
    const mock = await env.start({ rules: [keyRule("sk-a", ["ok"])] });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt")],
        config: { ...fast, models: { providers: { openai: { models: [{ id: "mock-gpt", cost: { input: 2, output: 10 } }] } } } },
      }),
    );
    const generated = await generateText({ model, prompt: "hello" });
    const { inputTokens, outputTokens } = generated.usage;
    expect(inputTokens).toBeGreaterThan(0);
    expect(outputTokens).toBeGreaterThan(0);
    const expectedCost = ((inputTokens ?? 0) * 2 + (outputTokens ?? 0) * 10) / 1_000_000;
    expect((generated.providerMetadata?.detour as { costUsd: number }).costUsd).toBeCloseTo(expectedCost, 12);

    const streamed = streamText({ model, prompt: "hello" });
    await readText(streamed);
    const streamedUsage = await streamed.usage;
    expect(streamedUsage.outputTokens).toBeGreaterThan(0);
    expect(((await streamed.providerMetadata)?.detour as { costUsd: number }).costUsd).toBeGreaterThan(0);
    await expect
      .poll(async () => (await (await model.detour()).profiles.list()).find((profile) => profile.id === "openai:1")?.spendUsd24h ?? 0)
      .toBeGreaterThan(expectedCost);
  });

  it("R-PO-7 R-LB-1 the rate-limit headers of the answering key are read into its headroom, as for the gateway", async () => {
    const mock = await env.start({ rules: [keyRule("sk-a", ["ok"])], budgets: { "sk-a": { requests: 100, usedRequests: 40 } } });
    const model = env.track(createDetourModel({ candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt")], config: fast }));
    await generateText({ model, prompt: "hello" });
    await expect
      .poll(async () => (await (await model.detour()).profiles.list()).find((profile) => profile.id === "openai:1")?.headroom)
      .toBeDefined();
  });

  it("R-LB-1 the AI SDK's retries never multiply Detour's: with maxRetries left at its default, each key is called once and Detour's error surfaces", async () => {
    const mock = await env.start({
      rules: [keyRule("sk-a", ["unavailable"], { then: "repeat-last" }), keyRule("sk-ant", ["overloaded"], { then: "repeat-last" })],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), anthropicWithKey(mock, "sk-ant")("mock-claude")],
        config: { ...fast, agents: { defaults: { modelFailover: { waitForCooldownMaxSeconds: 0, retrySameProfileOnServerError: 0 } } } },
      }),
    );
    const failure = await generateText({ model, prompt: "hello" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: "DETOUR_ALL_MODELS_FAILED" });
    expect(callsPerRule(mock)).toEqual({ "sk-a": 1, "sk-ant": 1 });
  });

  it("R-LB-1 one failing candidate surfaces as Detour's classified error, with the provider's status", async () => {
    const mock = await env.start({ rules: [keyRule("sk-a", ["invalid-key"], { then: "repeat-last" })] });
    const model = env.track(createDetourModel({ candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt")], config: fast }));
    const failure = await generateText({ model, prompt: "hello" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: "DETOUR_FAILOVER", reason: "auth", status: 401, provider: "openai" });
    expect(callsPerRule(mock)).toEqual({ "sk-a": 1 });
  });
});

const ANSWER = "The quick brown fox jumps over the lazy dog while the patient cat watches from the warm windowsill.";

async function readText(result: { textStream: AsyncIterable<string> }): Promise<string> {
  let text = "";
  for await (const piece of result.textStream) text += piece;
  return text;
}

describe("R-LB-1 streamText through createDetourModel", () => {
  const env = mockPerTest();

  it("R-LB-1 streamText fails over before the first token without the app seeing the failure", async () => {
    const mock = await env.start({
      rules: [keyRule("sk-a", ["rate-limit"], { then: "repeat-last" }), keyRule("sk-b", ["ok"], { answer: ANSWER })],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), openaiWithKey(mock, "sk-b").chat("mock-gpt")],
        config: fast,
      }),
    );
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "hello", onError: ({ error }) => void errors.push(error) });
    expect(await readText(result)).toBe(ANSWER);
    expect(errors).toEqual([]);
    expect(await result.providerMetadata).toMatchObject({
      detour: { profileId: "openai:2", attempts: [{ profileId: "openai:1", reason: "rate_limit", status: 429 }] },
    });
  });

  it("R-LB-1 a stream cut after its commit is continued on the next key and the app receives the whole answer exactly once", async () => {
    const mock = await env.start({
      rules: [
        keyRule("sk-a", [{ fault: "stream-cut", afterTokens: 5 }], { answer: ANSWER, then: "repeat-last" }),
        keyRule("sk-b", ["ok"], { answer: ANSWER, continuation: { style: "repeat-last-words" } }),
      ],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), openaiWithKey(mock, "sk-b").chat("mock-gpt")],
        config: fast,
      }),
    );
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "tell me", onError: ({ error }) => void errors.push(error) });
    expect(await readText(result)).toBe(ANSWER);
    expect(errors).toEqual([]);
    expect(await result.text).toBe(ANSWER);
    expect(await result.providerMetadata).toMatchObject({
      detour: { profileId: "openai:1", continuations: [{ provider: "openai", model: "mock-gpt", profileId: "openai:2" }] },
    });
    expect(callsPerRule(mock)).toEqual({ "sk-a": 1, "sk-b": 1 });
  });

  it("R-LB-1 a stream cut on one provider is continued on another (a prefill on Anthropic) without repeating a word", async () => {
    const mock = await env.start({
      rules: [
        keyRule("sk-a", [{ fault: "stream-cut", afterTokens: 6 }], { answer: ANSWER, then: "repeat-last" }),
        keyRule("sk-ant", ["ok"], { answer: ANSWER, continuation: { prefill: "accept", style: "exact" } }),
      ],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), anthropicWithKey(mock, "sk-ant")("mock-claude")],
        // No API is assumed to take a prefill: the model says it does.
        config: { ...fast, models: { providers: { anthropic: { models: [{ id: "mock-claude", supportsPrefill: true }] } } } },
      }),
    );
    const result = streamText({ model, prompt: "tell me" });
    expect(await readText(result)).toBe(ANSWER);
    expect(await result.providerMetadata).toMatchObject({
      detour: { provider: "openai", continuations: [{ provider: "anthropic", model: "mock-claude", profileId: "anthropic:1" }] },
    });
    const continuation = mock.requests().find((request) => request.ruleName === "sk-ant")?.body as { messages: { role: string }[] };
    expect(continuation.messages.at(-1)?.role).toBe("assistant");
  });

  it("R-LB-1 a stream that stalls after its commit is cut after streamStallSeconds and continued on the next key", async () => {
    const mock = await env.start({
      rules: [
        keyRule("sk-a", [{ fault: "stall", afterTokens: 4 }], { answer: ANSWER, then: "repeat-last" }),
        keyRule("sk-b", ["ok"], { answer: ANSWER, continuation: { style: "restart" } }),
      ],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), openaiWithKey(mock, "sk-b").chat("mock-gpt")],
        config: { ...fast, gateway: { streamStallSeconds: 0.3 } },
      }),
    );
    const result = streamText({ model, prompt: "tell me" });
    expect(await readText(result)).toBe(ANSWER);
    expect(await result.providerMetadata).toMatchObject({ detour: { profileId: "openai:1", continuations: [{ profileId: "openai:2" }] } });
    const profiles = await (await model.detour()).profiles.list();
    expect(profiles.find((profile) => profile.id === "openai:1")).toMatchObject({ usable: false, unusableReason: "timeout" });
  });

  it("R-LB-1 a cut that cannot be continued ends the app's stream with Detour's error, never a silent short answer", async () => {
    const mock = await env.start({
      rules: [keyRule("sk-a", [{ fault: "stream-cut", afterTokens: 3 }], { answer: ANSWER, then: "repeat-last" })],
    });
    const model = env.track(createDetourModel({ candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt")], config: fast }));
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "tell me", onError: ({ error }) => void errors.push(error) });
    const text = await readText(result);
    expect(ANSWER.startsWith(text) && text.length < ANSWER.length).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "DETOUR_FAILOVER", provider: "openai" });
  });
});

describe("R-LB-1 tools and structured output after a fallback across providers", () => {
  const env = mockPerTest();
  const weather = tool({
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, temperatureC: 21 }),
  });

  it("R-LB-1 generateText gets an intact tool call from the fallback provider and finishes the tool loop there", async () => {
    const mock = await env.start({
      rules: [keyRule("sk-a", ["overloaded"], { then: "repeat-last" }), keyRule("sk-ant", ["ok"])],
    });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), anthropicWithKey(mock, "sk-ant")("mock-claude")],
        config: fast,
      }),
    );
    const result = await generateText({
      model,
      tools: { get_weather: weather },
      stopWhen: stepCountIs(2),
      prompt: "Use get_weather for Paris.",
    });
    const [first, second] = result.steps;
    expect(first?.toolCalls).toMatchObject([{ toolName: "get_weather", input: { city: "mock-city" } }]);
    expect(first?.toolResults).toMatchObject([{ toolName: "get_weather", output: { city: "mock-city", temperatureC: 21 } }]);
    expect(first?.providerMetadata?.detour).toMatchObject({ provider: "anthropic", attempts: [{ provider: "openai", status: 529 }] });
    expect(second?.text).toContain("got the tool result");
  });

  it("R-LB-1 streamText streams the fallback provider's tool call whole (name, id and arguments)", async () => {
    const mock = await env.start({
      rules: [keyRule("sk-ant", ["overloaded"], { then: "repeat-last" }), keyRule("sk-a", ["ok"])],
    });
    const model = env.track(
      createDetourModel({
        candidates: [anthropicWithKey(mock, "sk-ant")("mock-claude"), openaiWithKey(mock, "sk-a").chat("mock-gpt")],
        config: fast,
      }),
    );
    const result = streamText({ model, tools: { get_weather: weather }, prompt: "Use get_weather for Paris." });
    const calls = await result.toolCalls;
    expect(calls).toMatchObject([{ toolName: "get_weather", input: { city: "mock-city" } }]);
    expect(calls[0]?.toolCallId).toMatch(/^call_mock_/);
    expect(await result.finishReason).toBe("tool-calls");
    expect(await result.providerMetadata).toMatchObject({
      detour: { provider: "openai", attempts: [{ provider: "anthropic", status: 529 }] },
    });
  });

  it("R-LB-1 structured output (Output.object) parses the fallback provider's JSON answer", async () => {
    const answer = JSON.stringify({ city: "Paris", temperatureC: 21, sunny: true });
    const mock = await env.start({
      rules: [keyRule("sk-ant", ["overloaded"], { then: "repeat-last" }), keyRule("sk-a", ["ok"], { answer })],
    });
    const model = env.track(
      createDetourModel({
        candidates: [anthropicWithKey(mock, "sk-ant")("mock-claude"), openaiWithKey(mock, "sk-a").chat("mock-gpt")],
        config: fast,
      }),
    );
    const schema = z.object({ city: z.string(), temperatureC: z.number(), sunny: z.boolean() });
    const generated = await generateText({ model, output: Output.object({ schema }), prompt: "Weather in Paris as JSON" });
    expect(generated.output).toEqual({ city: "Paris", temperatureC: 21, sunny: true });
    const streamed = streamText({ model, output: Output.object({ schema }), prompt: "Weather in Paris as JSON" });
    expect(await streamed.output).toEqual({ city: "Paris", temperatureC: 21, sunny: true });
    const sent = mock.requests().find((request) => request.ruleName === "sk-a")?.body as { response_format?: { type: string } };
    expect(sent.response_format?.type).toBe("json_schema");
  });
});

describe("R-LB-1 shared state, stickiness and the caller's abort", () => {
  const env = mockPerTest();

  it("R-LB-1 a second instance sharing Redis sees the first's cooldown and never calls the cooled key", async () => {
    const prefix = uniquePrefix();
    const mock = await env.start({ rules: [keyRule("sk-a", ["rate-limit"], { then: "repeat-last" }), keyRule("sk-b", ["ok"])] });
    const config = { ...fast, state: { backend: "redis" as const, redis: { url: SHARED_REDIS_URL, keyPrefix: prefix } } };
    // Two app instances: each builds its own provider instances and its own Detour model.
    const appInstance = () =>
      env.track(
        createDetourModel({
          candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), openaiWithKey(mock, "sk-b").chat("mock-gpt")],
          config,
        }),
      );
    try {
      const first = appInstance();
      const second = appInstance();
      const answered = await generateText({ model: first, prompt: "hello" });
      expect(answered.providerMetadata?.detour).toMatchObject({
        profileId: "openai:2",
        attempts: [{ profileId: "openai:1", status: 429 }],
      });

      const profiles = await (await second.detour()).profiles.list();
      expect(profiles.find((profile) => profile.id === "openai:1")).toMatchObject({ usable: false, unusableReason: "rate_limit" });
      const fromSecond = await generateText({ model: second, prompt: "hello" });
      expect(fromSecond.providerMetadata?.detour).toMatchObject({ profileId: "openai:2", attempts: [] });
      expect(callsPerRule(mock)).toEqual({ "sk-a": 1, "sk-b": 2 });
    } finally {
      await deleteKeysWithPrefix(SHARED_REDIS_URL, prefix);
    }
  });

  it("R-LB-1 providerOptions.detour.sessionId keeps a conversation on its key while other calls rotate", async () => {
    const mock = await env.start({ rules: [keyRule("sk-a", ["ok"]), keyRule("sk-b", ["ok"])] });
    const model = env.track(
      createDetourModel({
        candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt"), openaiWithKey(mock, "sk-b").chat("mock-gpt")],
        config: fast,
      }),
    );
    const inSession = { detour: { sessionId: "conversation-1" } };
    const profileOf = async (options: { providerOptions?: typeof inSession }) =>
      ((await generateText({ model, prompt: "hello", ...options })).providerMetadata?.detour as { profileId: string }).profileId;
    const pinned = await profileOf({ providerOptions: inSession });
    const unpinned = [await profileOf({}), await profileOf({})];
    expect(new Set(unpinned)).toEqual(new Set(["openai:1", "openai:2"]));
    for (let turn = 0; turn < 3; turn += 1) expect(await profileOf({ providerOptions: inSession })).toBe(pinned);
    // Detour's own option never reaches the provider.
    expect(JSON.stringify(mock.requests().map((request) => request.body))).not.toContain("conversation-1");
  });

  it("R-LB-1 the caller's abort stops the stream and is not held against the key", async () => {
    const mock = await env.start({ rules: [keyRule("sk-a", [{ fault: "slow-generation", tokenDelayMs: 40, tokens: 200 }])] });
    const model = env.track(createDetourModel({ candidates: [openaiWithKey(mock, "sk-a").chat("mock-gpt")], config: fast }));
    const controller = new AbortController();
    const result = streamText({ model, prompt: "a long story", abortSignal: controller.signal });
    let pieces = 0;
    const reading = (async () => {
      for await (const _piece of result.textStream) {
        pieces += 1;
        if (pieces === 3) controller.abort();
      }
    })();
    await reading.catch(() => undefined);
    expect(pieces).toBeLessThan(20);
    const profiles = await (await model.detour()).profiles.list();
    expect(profiles.find((profile) => profile.id === "openai:1")).toMatchObject({ usable: true });
    expect(profiles.find((profile) => profile.id === "openai:1")?.stats.errorCount ?? 0).toBe(0);
  });
});
