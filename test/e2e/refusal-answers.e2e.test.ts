/**
 * R-GW-11 over real sockets with the official `@anthropic-ai/sdk` and `openai` clients: a refusal that arrives
 * as a 200 answer (Anthropic `stop_reason: "refusal"`, OpenAI `finish_reason: "content_filter"` or a
 * `refusal` message) is returned as sent, ends the run without a fallback and is counted as `content_filter`
 * in the run's outcome and the metrics; Anthropic's own `fallbacks` field and beta header reach the upstream.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DetourEvent } from "../../src/ports/events.js";
import { startCapturingUpstream, type CannedAnswers, type CapturingUpstream } from "./fixtures/capturing-upstream.js";
import { CLIENT_TOKEN, startHarness, type Harness } from "./fixtures/gateway-harness.js";
import { readMessageStream } from "./fixtures/read-streams.js";

const REFUSAL_TEXT = "I can't help with that request.";

const anthropicEvent = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const ANTHROPIC_REFUSAL: CannedAnswers = {
  json: JSON.stringify({
    id: "msg_refusal1",
    type: "message",
    role: "assistant",
    model: "up-claude",
    content: [{ type: "text", text: REFUSAL_TEXT }],
    stop_reason: "refusal",
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 8 },
  }),
  events: [
    anthropicEvent("message_start", {
      type: "message_start",
      message: {
        id: "msg_refusal1",
        type: "message",
        role: "assistant",
        model: "up-claude",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    anthropicEvent("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    anthropicEvent("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: REFUSAL_TEXT } }),
    anthropicEvent("content_block_stop", { type: "content_block_stop", index: 0 }),
    anthropicEvent("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "refusal", stop_sequence: null },
      usage: { output_tokens: 8 },
    }),
    anthropicEvent("message_stop", { type: "message_stop" }),
  ],
};

const openAiChunk = (choice: unknown, usage: unknown = null): string =>
  `data: ${JSON.stringify({ id: "chatcmpl-r1", object: "chat.completion.chunk", created: 1_760_000_000, model: "up-gpt", choices: choice === null ? [] : [choice], usage })}\n\n`;
const OPENAI_CONTENT_FILTER: CannedAnswers = {
  json: JSON.stringify({
    id: "chatcmpl-r1",
    object: "chat.completion",
    created: 1_760_000_000,
    model: "up-gpt",
    choices: [{ index: 0, message: { role: "assistant", content: null, refusal: REFUSAL_TEXT }, finish_reason: "content_filter" }],
    usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
  }),
  events: [
    openAiChunk({ index: 0, delta: { role: "assistant", content: "Partial" }, finish_reason: null }),
    openAiChunk({ index: 0, delta: {}, finish_reason: "content_filter" }),
    openAiChunk(null, { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 }),
    "data: [DONE]\n\n",
  ],
};

let harness: Harness | undefined;
let upstream: CapturingUpstream | undefined;
afterEach(async () => {
  await harness?.close();
  await upstream?.close();
  harness = undefined;
  upstream = undefined;
});

const OPENAI_REFUSAL_DELTA: CannedAnswers = {
  json: OPENAI_CONTENT_FILTER.json,
  events: [
    openAiChunk({ index: 0, delta: { role: "assistant", content: null, refusal: "" }, finish_reason: null }),
    openAiChunk({ index: 0, delta: { refusal: REFUSAL_TEXT }, finish_reason: null }),
    openAiChunk({ index: 0, delta: {}, finish_reason: "stop" }),
    openAiChunk(null, { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 }),
    "data: [DONE]\n\n",
  ],
};

async function start(
  primary: "anthropic" | "openai",
  openai = OPENAI_CONTENT_FILTER,
): Promise<{ h: Harness; up: CapturingUpstream; events: DetourEvent[] }> {
  upstream = await startCapturingUpstream({ openai, anthropic: ANTHROPIC_REFUSAL });
  const model =
    primary === "anthropic"
      ? { primary: "anthropic/up-claude", fallbacks: ["openai/up-gpt"] }
      : { primary: "openai/up-gpt", fallbacks: ["anthropic/up-claude"] };
  // Roomy watchdogs: these tests are about the answer, not about silence on a busy machine.
  harness = await startHarness({
    model,
    baseUrls: { openai: `${upstream.url}/v1`, anthropic: upstream.url },
    gateway: { ttftTimeoutSeconds: 5, streamStallSeconds: 5 },
  });
  const events: DetourEvent[] = [];
  harness.gateway.detour.on("*", (event: DetourEvent) => events.push(event));
  return { h: harness, up: upstream, events };
}

async function runFinished(events: DetourEvent[]) {
  for (let tries = 0; tries < 100 && !events.some((event) => event.type === "run_finished"); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return events.find((event): event is Extract<DetourEvent, { type: "run_finished" }> => event.type === "run_finished");
}

async function metrics(h: Harness): Promise<string> {
  const response = await fetch(`${h.gateway.url}/metrics`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
  return response.text();
}

/** The run stopped at the refusal: one upstream call, no fallback, and it is counted as content_filter. */
async function expectCountedAsContentFilter(h: Harness, up: CapturingUpstream, events: DetourEvent[], path: string): Promise<void> {
  expect((await runFinished(events))?.outcome).toBe("content_filter");
  expect(up.requests.map((request) => request.path.includes(path))).toEqual([true]);
  const attempts = events.filter((event) => event.type === "attempt_finished");
  expect(attempts).toHaveLength(1);
  expect(attempts[0]).toMatchObject({ outcome: "failed", reason: "content_filter", status: 200 });
  expect(events.some((event) => event.type === "model_fallback_decision" && event.fallbackStepFinalOutcome === "next_fallback")).toBe(
    false,
  );
  const text = await metrics(h);
  expect(text).toMatch(/detour_requests_total\{agent="main",outcome="content_filter"\} 1/);
  expect(text).not.toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\}/);
}

describe("R-GW-11 refusals that arrive as answers", () => {
  it("R-GW-11: an Anthropic 200 with stop_reason refusal is returned as sent, counted as content_filter, no fallback", async () => {
    const { h, up, events } = await start("anthropic");
    const message = await h.anthropic.messages.create({
      model: "detour",
      max_tokens: 200,
      messages: [{ role: "user", content: "something refused" }],
    });
    expect(message.stop_reason).toBe("refusal");
    expect(message.content).toEqual([{ type: "text", text: REFUSAL_TEXT }]);
    await expectCountedAsContentFilter(h, up, events, "/messages");
  });

  it("R-GW-11: a streamed Anthropic refusal reaches the client as sent and the run is content_filter", async () => {
    const { h, up, events } = await start("anthropic");
    const { text, message } = await readMessageStream(
      h.anthropic.messages.stream({ model: "detour", max_tokens: 200, messages: [{ role: "user", content: "something refused" }] }),
    );
    expect(text).toBe(REFUSAL_TEXT);
    expect(message.stop_reason).toBe("refusal");
    await expectCountedAsContentFilter(h, up, events, "/messages");
  });

  it("R-GW-11: an OpenAI finish_reason content_filter with a refusal message is returned as sent and counted as content_filter", async () => {
    const { h, up, events } = await start("openai");
    const completion = await h.openai.chat.completions.create({
      model: "detour",
      messages: [{ role: "user", content: "something refused" }],
    });
    expect(completion.choices[0]?.finish_reason).toBe("content_filter");
    await expectCountedAsContentFilter(h, up, events, "/chat/completions");
  });

  it("R-GW-11: a streamed OpenAI content_filter finish is counted as content_filter, no fallback", async () => {
    const { h, up, events } = await start("openai");
    let finish: string | null = null;
    let text = "";
    for await (const chunk of await h.openai.chat.completions.create({
      model: "detour",
      stream: true,
      messages: [{ role: "user", content: "something refused" }],
    })) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe("Partial");
    expect(finish).toBe("content_filter");
    await expectCountedAsContentFilter(h, up, events, "/chat/completions");
  });

  it("R-GW-11: a streamed OpenAI refusal in delta.refusal with a plain stop finish is counted as content_filter", async () => {
    const { h, up, events } = await start("openai", OPENAI_REFUSAL_DELTA);
    let refusal = "";
    let finish: string | null = null;
    for await (const chunk of await h.openai.chat.completions.create({
      model: "detour",
      stream: true,
      messages: [{ role: "user", content: "something refused" }],
    })) {
      refusal += (chunk.choices[0]?.delta as { refusal?: string | null } | undefined)?.refusal ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(refusal).toBe(REFUSAL_TEXT);
    expect(finish).toBe("stop");
    await expectCountedAsContentFilter(h, up, events, "/chat/completions");
  });

  it("R-GW-11: Anthropic's fallbacks field and its beta header are forwarded on the same-wire lane", async () => {
    const { h, up } = await start("anthropic");
    const fallbacks = [{ model: "claude-sonnet-4-5" }];
    await h.anthropic.messages.create(
      { model: "detour", max_tokens: 200, messages: [{ role: "user", content: "hi" }], fallbacks } as Parameters<
        typeof h.anthropic.messages.create
      >[0],
      { headers: { "anthropic-beta": "model-fallbacks-2026-01-15" } },
    );
    const sent = up.requests[0];
    expect((JSON.parse(sent?.body ?? "{}") as { fallbacks?: unknown }).fallbacks).toEqual(fallbacks);
    expect(String(sent?.headers["anthropic-beta"])).toContain("model-fallbacks-2026-01-15");
  });
});
