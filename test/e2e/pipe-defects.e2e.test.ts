/**
 * R-GW-10 from outside: a gateway over loopback HTTP, the fault-injecting mock provider and the official SDKs.
 * - An upstream that ignores `stream: true` and answers 200 `application/json` with its whole answer: that body
 *   is the answer (as sent to a non-streamed client, as a stream to a streamed one), in one upstream call, and
 *   nothing is recorded as a failure — on the same-wire lane and the canonical lane, for the OpenAI chat,
 *   Anthropic Messages and OpenAI Responses wires.
 * - A continuation keeps the `id`, `created` and `system_fingerprint` of the answer it continues.
 * - A continuation never leaves the client's stream silent longer than `streamStallSeconds`: it does not wait
 *   for a cooldown, a retry or a slow first token mid-stream.
 */
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { DetourEvent } from "../../src/ports/events.js";
import { fingerprintKey, MID_STREAM_CUT_ANSWER, type MockRuleInput } from "../../src/testing/mock-provider/index.js";
import { KEYS, harnessPerTest, profileStats, runFinished, type Harness } from "./fixtures/gateway-harness.js";
import { readChatStream } from "./fixtures/read-streams.js";

const ANSWER = MID_STREAM_CUT_ANSWER;
const start = harnessPerTest();

/** Nothing of the run was a failure: one attempt, succeeded, no failure on any profile. */
async function expectNoFailure(h: Harness, events: DetourEvent[]) {
  expect(await runFinished(events)).toMatchObject({ outcome: "succeeded" });
  const finished = events.filter((event) => event.type === "attempt_finished");
  expect(finished.map((event) => (event as { outcome: string }).outcome)).toEqual(["succeeded"]);
  expect(events.some((event) => event.type === "profile_failure_recorded")).toBe(false);
  for (const id of ["openai:a", "openai:b", "anthropic:a"]) expect((await profileStats(h, id))?.errorCount ?? 0).toBe(0);
}

const IGNORES_STREAM = [{ answer: ANSWER, steps: ["ignores-stream" as const], then: "repeat-last" as const }];
const ask = { model: "detour", messages: [{ role: "user" as const, content: "tell me a story" }] };

describe("R-GW-10: an upstream that ignores stream: true answers with its whole JSON body", () => {
  it("R-GW-10: OpenAI client, OpenAI upstream, not streamed: the JSON body is the answer, one upstream call, no failure", async () => {
    const { h, events } = await start({ scenario: IGNORES_STREAM });
    const started = Date.now();
    const { data, response } = await h.openai.chat.completions.create(ask).withResponse();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(data.choices[0]?.message.content).toBe(ANSWER);
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.model).toBe("openai/mock-gpt");
    expect(data.system_fingerprint).toBe("fp_mock");
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-detour-attempts")).toBe("1");
    // The upstream was asked for a stream (R-ST-6) and answered JSON; it was called once.
    expect(h.mock.requests()).toHaveLength(1);
    expect((h.mock.requests()[0]?.body as { stream?: boolean }).stream).toBe(true);
    await expectNoFailure(h, events);
  });

  it("R-GW-10: OpenAI client, OpenAI upstream, streamed: the JSON answer arrives as chunks of its own id, created and fingerprint", async () => {
    const { h, events } = await start({ scenario: IGNORES_STREAM });
    // The upstream's plain answer to the same request is JSON too: that is the scenario.
    const plain = await fetch(`${h.mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${KEYS.openaiA}` },
      body: JSON.stringify({ model: "mock-gpt", stream: true, messages: ask.messages }),
    });
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    await plain.arrayBuffer();
    h.mock.reset();
    // The gateway's clock runs a day ahead of the mock's: a `created` Detour made up would be a day off.
    h.clock.skewMs = 86_400_000;
    const sentAfter = Math.floor(Date.now() / 1000);
    let text = "";
    let finish: string | null = null;
    let usage: unknown;
    const identities = new Set<string>();
    const stream = await h.openai.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) {
      identities.add(`${chunk.id} ${chunk.created} ${chunk.system_fingerprint} ${chunk.model}`);
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(ANSWER);
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number), prompt_tokens: expect.any(Number) });
    const [identity] = [...identities];
    expect(identities.size).toBe(1);
    expect(identity).toMatch(/^chatcmpl-mock-1 \d+ fp_mock openai\/mock-gpt$/);
    await expectNoFailure(h, events);
    expect(h.mock.requests()).toHaveLength(1);
    const created = Number(identity?.split(" ")[1]);
    expect(created).toBeGreaterThanOrEqual(sentAfter);
    expect(created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it("R-GW-10: OpenAI client, Anthropic upstream (canonical lane), streamed and not: the JSON answer is the answer", async () => {
    const { h, events } = await start({ model: { primary: "anthropic/mock-claude", fallbacks: [] }, scenario: IGNORES_STREAM });
    const plain = await h.openai.chat.completions.create(ask);
    expect(plain.choices[0]?.message.content).toBe(ANSWER);
    expect(plain.model).toBe("anthropic/mock-claude");
    await expectNoFailure(h, events);

    events.length = 0;
    let text = "";
    for await (const chunk of await h.openai.chat.completions.create({ ...ask, stream: true }))
      text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe(ANSWER);
    await expectNoFailure(h, events);
    expect(h.mock.requests().map((request) => (request.body as { stream?: boolean }).stream)).toEqual([true, true]);
  });

  it("R-GW-10: Anthropic client, Anthropic upstream (same wire), streamed and not: the JSON message is the answer", async () => {
    const { h, events } = await start({ model: { primary: "anthropic/mock-claude", fallbacks: [] }, scenario: IGNORES_STREAM });
    const message = await h.anthropic.messages.create({
      model: "detour",
      max_tokens: 400,
      messages: [{ role: "user", content: "tell me a story" }],
    });
    expect(message.content).toEqual([expect.objectContaining({ type: "text", text: ANSWER })]);
    expect(message.model).toBe("anthropic/mock-claude");
    await expectNoFailure(h, events);

    events.length = 0;
    const stream = h.anthropic.messages.stream({
      model: "detour",
      max_tokens: 400,
      messages: [{ role: "user", content: "tell me a story" }],
    });
    const streamed = await stream.finalMessage();
    expect(streamed.content).toEqual([expect.objectContaining({ type: "text", text: ANSWER })]);
    expect(streamed.stop_reason).toBe("end_turn");
    expect(streamed.id).toMatch(/^msg_/);
    expect(streamed.usage.output_tokens).toBeGreaterThan(0);
    expect(streamed.usage.input_tokens).toBeGreaterThan(0);
    await expectNoFailure(h, events);
    expect(h.mock.requests()).toHaveLength(2);
  });

  it("R-GW-10: OpenAI Responses client and upstream (same wire) and a chat client on a Responses upstream (canonical lane)", async () => {
    const { h, events } = await start({
      responsesProviders: true,
      model: { primary: "openai-codex/mock-gpt", fallbacks: [] },
      scenario: [{ match: { key: KEYS.codexA }, answer: ANSWER, steps: ["ignores-stream"], then: "repeat-last" }],
    });
    const response = await h.openai.responses.create({ model: "detour", input: "tell me a story" });
    expect(response.output_text).toBe(ANSWER);
    expect(response.model).toBe("openai-codex/mock-gpt");
    let text = "";
    let completed: { model?: string; usage?: { output_tokens: number } } | undefined;
    for await (const event of await h.openai.responses.create({ model: "detour", input: "tell me a story", stream: true })) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response as typeof completed;
    }
    expect(text).toBe(ANSWER);
    expect(completed?.model).toBe("openai-codex/mock-gpt");
    expect(completed?.usage?.output_tokens).toBeGreaterThan(0);

    let chatText = "";
    for await (const chunk of await h.openai.chat.completions.create({ ...ask, stream: true }))
      chatText += chunk.choices[0]?.delta.content ?? "";
    expect(chatText).toBe(ANSWER);
    expect((await h.openai.chat.completions.create(ask)).choices[0]?.message.content).toBe(ANSWER);

    expect(h.mock.requests()).toHaveLength(4);
    expect(events.some((event) => event.type === "profile_failure_recorded")).toBe(false);
    expect((await profileStats(h, "openai-codex:a"))?.errorCount ?? 0).toBe(0);
  });

  /** Key A answers every call 200 with `body`; every other call is answered. */
  const keyAAnswers200 = (body: unknown): MockRuleInput[] => [
    { match: { key: KEYS.openaiA }, steps: [{ fault: "status", status: 200, body }], then: "repeat-last" },
    { answer: ANSWER, steps: ["ok"], then: "repeat-last" },
  ];
  const RATE_LIMITED = {
    error: { message: "Rate limit reached for requests.", type: "requests", param: null, code: "rate_limit_exceeded" },
  };
  const keyAFailedOnRateLimit = (events: DetourEvent[]) =>
    expect(events.find((event) => event.type === "attempt_finished")).toMatchObject({
      profileId: "openai:a",
      outcome: "failed",
      reason: "rate_limit",
    });

  it("R-GW-10: a 200 JSON error object sent for a stream is the provider's error: it fails over with its own reason", async () => {
    const { h, events } = await start({ scenario: keyAAnswers200(RATE_LIMITED) });
    expect((await readChatStream(await h.openai.chat.completions.create({ ...ask, stream: true }))).text).toBe(ANSWER);
    keyAFailedOnRateLimit(events);
  });

  it("R-GW-10: a 200 JSON error object to a non-streamed client's streamed call is the provider's error too, not a 200 answer", async () => {
    const { h, events } = await start({ scenario: keyAAnswers200(RATE_LIMITED) });
    expect((await h.openai.chat.completions.create(ask)).choices[0]?.message.content).toBe(ANSWER);
    keyAFailedOnRateLimit(events);
  });

  it("R-GW-10: a 200 JSON body that is not an answer still fails over, as before", async () => {
    const { h } = await start({ scenario: keyAAnswers200({ not: "an answer" }) });
    expect((await readChatStream(await h.openai.chat.completions.create({ ...ask, stream: true }))).text).toBe(ANSWER);
    expect(h.mock.requests().map((request) => request.keyFingerprint)).toEqual([
      fingerprintKey(KEYS.openaiA),
      fingerprintKey(KEYS.openaiB),
    ]);
  });
});

describe("R-GW-10: a continuation is the same answer", () => {
  async function chunksOf(h: Harness) {
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of await h.openai.chat.completions.create({ ...ask, stream: true })) chunks.push(chunk);
    return chunks;
  }

  it("R-GW-10: continued chunks keep the id, created and system_fingerprint of the answer they continue (same wire)", async () => {
    const { h, events } = await start({
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 12 }] },
        { match: { key: KEYS.openaiB }, answer: ANSWER, steps: ["ok"] },
      ],
    });
    const chunks = await chunksOf(h);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(ANSWER);
    expect(await runFinished(events)).toMatchObject({ outcome: "succeeded", continuations: 1 });
    const first = chunks[0] as OpenAI.Chat.Completions.ChatCompletionChunk;
    expect(first.id).toBe("chatcmpl-mock-1");
    expect(first.system_fingerprint).toBe("fp_mock");
    for (const chunk of chunks) {
      expect(chunk.id).toBe(first.id);
      expect(chunk.created).toBe(first.created);
      expect(chunk.system_fingerprint).toBe(first.system_fingerprint);
    }
  });

  it("R-GW-10: continued chunks keep the id and created of a first answer from another wire (canonical lane)", async () => {
    const { h, events } = await start({
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      scenario: [
        { match: { api: "anthropic" }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 12 }] },
        { match: { api: "openai" }, answer: ANSWER, steps: ["ok"], then: "repeat-last" },
      ],
    });
    const chunks = await chunksOf(h);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(ANSWER);
    expect(await runFinished(events)).toMatchObject({ outcome: "succeeded", continuations: 1 });
    const first = chunks[0] as OpenAI.Chat.Completions.ChatCompletionChunk;
    expect(first.id).toMatch(/^msg_/);
    expect(new Set(chunks.map((chunk) => `${chunk.id} ${chunk.created}`)).size).toBe(1);
  });
});

describe("R-GW-10: a continuation never leaves the client stream silent longer than streamStallSeconds", () => {
  /** Reads the stream; the longest gap between two chunks the client got, and how it ended. */
  async function readGaps(h: Harness) {
    let text = "";
    let last = Date.now();
    let longestGapMs = 0;
    let error: unknown;
    try {
      for await (const chunk of await h.openai.chat.completions.create({ ...ask, stream: true })) {
        const now = Date.now();
        longestGapMs = Math.max(longestGapMs, now - last);
        last = now;
        text += chunk.choices[0]?.delta.content ?? "";
      }
    } catch (caught) {
      longestGapMs = Math.max(longestGapMs, Date.now() - last);
      error = caught;
    }
    return { text, longestGapMs, error };
  }

  it("R-GW-10: with every profile cooling down after the cut, the stream ends with the explicit error at once instead of waiting for a cooldown", async () => {
    const { h, events } = await start({
      model: { primary: "openai/mock-gpt", fallbacks: [] },
      gateway: { ttftTimeoutSeconds: 2, streamStallSeconds: 2 },
      // The default wait: before the fix the continuation waited ~10 s for openai:a's cooldown, the client silent.
      modelFailover: { waitForCooldownMaxSeconds: 10, retrySameProfileOnTimeout: 1 },
      tokenDelayMs: 5,
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 6 }], then: "ok" },
        { match: { key: KEYS.openaiB }, answer: ANSWER, steps: ["reset"], then: "repeat-last" },
      ],
    });
    const result = await readGaps(h);
    expect(result.error).toBeInstanceOf(OpenAI.APIError);
    expect(ANSWER.startsWith(result.text)).toBe(true);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.longestGapMs).toBeLessThan(2_000);
    // The cut (openai:a), then openai:b once — no same-profile retry, no cooldown wait, no third call.
    expect(h.mock.requests().map((request) => request.fault)).toEqual(["stream-cut", "reset"]);
    expect(events.some((event) => event.type === "cooldown_wait" || event.type === "timeout_retry_scheduled")).toBe(false);
    expect(await runFinished(events)).toMatchObject({ outcome: "failed" });
  });

  it("R-GW-10: a continuation whose first token is slower than streamStallSeconds is given up for the next candidate", async () => {
    const { h, events } = await start({
      gateway: { ttftTimeoutSeconds: 10, streamStallSeconds: 1 },
      tokenDelayMs: 5,
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 6 }] },
        { match: { key: KEYS.openaiB }, answer: ANSWER, steps: [{ fault: "slow-first-token", delayMs: 5_000 }] },
        { match: { api: "anthropic" }, answer: ANSWER, steps: ["ok"], then: "repeat-last" },
      ],
    });
    const result = await readGaps(h);
    expect(result.error).toBeUndefined();
    expect(result.text).toBe(ANSWER);
    // The cut, openai:b's silence cut at the stall budget (not the 10 s first-token one), then Anthropic.
    expect(result.longestGapMs).toBeLessThan(2_500);
    expect(h.mock.requests().map((request) => request.api)).toEqual(["openai", "openai", "anthropic"]);
    expect(await runFinished(events)).toMatchObject({ outcome: "succeeded", continuations: 1, model: "mock-claude" });
  });
});
