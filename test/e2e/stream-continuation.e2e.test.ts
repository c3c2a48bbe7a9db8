/**
 * Mid-stream continuation (R-ST-4) and outcome truth (R-ST-5) over real sockets, with the official `openai`
 * and `@anthropic-ai/sdk` clients: a stream cut or stalled after its commit completes with the mock's
 * canonical answer — no word doubled or missing at the seam — and metrics, the decision log and profile
 * state say what the client saw.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { MID_STREAM_CUT_ANSWER } from "../../src/testing/mock-provider/index.js";
import {
  CLIENT_TOKEN,
  KEYS,
  harnessPerTest,
  profileStats,
  runFinished,
  type Harness,
  type HarnessOptions,
} from "./fixtures/gateway-harness.js";
import { readMessageStream } from "./fixtures/read-streams.js";

const ANSWER = MID_STREAM_CUT_ANSWER;
const start = harnessPerTest();

const streamed = { model: "detour", stream: true as const, messages: [{ role: "user" as const, content: "tell me a story" }] };

async function openAIText(h: Harness) {
  let text = "";
  let finish: string | null = null;
  for await (const chunk of await h.openai.chat.completions.create(streamed)) {
    text += chunk.choices[0]?.delta.content ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  return { text, finish };
}

async function metrics(h: Harness): Promise<string> {
  const response = await fetch(`${h.gateway.url}/metrics`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
  return response.text();
}

type Message = { role: string; content: unknown };
function messagesOf(body: unknown): Message[] {
  return (body as { messages: Message[] }).messages;
}

describe("R-ST-4 / R-ST-5: streams that finish", () => {
  it("R-ST-4: an OpenAI stream cut after commit completes on the model's other profile with the full text (instructed)", async () => {
    const { h, events } = await start({
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 12 }] },
        { match: { key: KEYS.openaiB }, answer: ANSWER, steps: ["ok"] },
      ],
    });
    const result = await openAIText(h);
    expect(result.text).toBe(ANSWER);
    expect(result.finish).toBe("stop");
    // OpenAI does not continue a trailing assistant message: the instructed form, delivered text first.
    const continuation = h.mock.requests().at(-1);
    const messages = messagesOf(continuation?.body);
    expect(messages.at(-2)?.role).toBe("assistant");
    expect(ANSWER.startsWith(String(messages.at(-2)?.content))).toBe(true);
    expect(messages.at(-1)?.role).toBe("user");

    // R-ST-5: the run succeeded once, as a rescue; the cut is on openai:a, the success on openai:b.
    const finished = await runFinished(events);
    expect(finished).toMatchObject({ outcome: "succeeded", profileId: "openai:b", continuations: 1 });
    const decisions = events.filter((event) => event.type === "model_fallback_decision");
    expect(decisions.at(-1)).toMatchObject({ decision: "candidate_succeeded", continuation: 1, profileId: "openai:b" });
    expect((await profileStats(h, "openai:a"))?.errorCount).toBe(1);
    expect((await profileStats(h, "openai:b"))?.errorCount ?? 0).toBe(0);
    const text = await metrics(h);
    expect(text).toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\} 1/);
    expect(text).not.toMatch(/detour_requests_total\{agent="main",outcome="failed"\}/);
    expect(text).toMatch(/detour_requests_continued_total\{agent="main",outcome="succeeded"\} 1/);
    expect(text).toMatch(/detour_stream_continuations_total\{provider="openai",model="mock-gpt",outcome="succeeded"\} 1/);
  });

  it("R-ST-4: a continuation that repeats the last words is trimmed at the seam", async () => {
    const { h } = await start({
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 9 }] },
        { match: { key: KEYS.openaiB }, answer: ANSWER, continuation: { style: "repeat-last-words" }, steps: ["ok"] },
      ],
    });
    expect((await openAIText(h)).text).toBe(ANSWER);
  });

  it("R-ST-4: an Anthropic same-wire stream cut after commit is completed across wires by a fallback that restarts from the beginning", async () => {
    const { h, events } = await start({
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      scenario: [
        { match: { api: "anthropic" }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 15 }] },
        { match: { api: "openai" }, answer: ANSWER, continuation: { style: "restart" }, steps: ["ok"] },
      ],
    });
    const stream = h.anthropic.messages.stream({
      model: "detour",
      max_tokens: 400,
      messages: [{ role: "user", content: "tell me a story" }],
    });
    const message = await stream.finalMessage();
    expect(message.content).toEqual(
      [{ type: "text", text: ANSWER, citations: null }].map(({ citations: _c, ...block }) => expect.objectContaining(block)),
    );
    expect(message.stop_reason).toBe("end_turn");
    const finished = await runFinished(events);
    expect(finished).toMatchObject({ outcome: "succeeded", model: "mock-gpt", continuations: 1 });
    expect((await profileStats(h, "anthropic:a"))?.errorCount).toBe(1);
  });

  /** Key A's stream is cut, key B cannot connect, and the one fallback, a Claude model, rejects a prefill. */
  const cutThenClaudeRejectingPrefill = (claude: string): HarnessOptions => ({
    model: { primary: "openai/mock-gpt", fallbacks: [claude] },
    scenario: [
      { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 10 }] },
      { match: { key: KEYS.openaiB }, steps: ["reset"], then: "repeat-last" },
      { match: { api: "anthropic" }, answer: ANSWER, continuation: { prefill: "reject" }, steps: ["ok"], then: "repeat-last" },
    ],
  });

  it("R-ST-4: a cut whose only fallback rejects prefill is completed by an instructed continuation", async () => {
    // A catalogue model that takes a prefill (Claude before 4.6), so the prefill goes first.
    const { h } = await start(cutThenClaudeRejectingPrefill("anthropic/claude-sonnet-4-5"));
    expect((await openAIText(h)).text).toBe(ANSWER);
    const anthropicCalls = h.mock.requests().filter((request) => request.api === "anthropic");
    // Anthropic models get the prefill first; its 400 leads to the instructed form, never to the error.
    expect(anthropicCalls.map((request) => request.fault)).toEqual(["ok", "ok"]);
    expect(messagesOf(anthropicCalls[0]?.body).at(-1)?.role).toBe("assistant");
    expect(messagesOf(anthropicCalls[1]?.body).at(-1)?.role).toBe("user");
  });

  it("R-ST-4: a continuation on a catalogue Claude 4.6 model sends no prefill: the instructed form first, no 400 eaten", async () => {
    const { h } = await start(cutThenClaudeRejectingPrefill("anthropic/claude-sonnet-4-6"));
    expect((await openAIText(h)).text).toBe(ANSWER);
    const anthropicCalls = h.mock.requests().filter((request) => request.api === "anthropic");
    expect(anthropicCalls).toHaveLength(1);
    const messages = messagesOf(anthropicCalls[0]?.body);
    // The trailing-user-message pattern: the delivered text as an assistant turn, then the user's instruction.
    expect(messages.at(-1)?.role).toBe("user");
    expect(messages.at(-2)?.role).toBe("assistant");
  });

  it("R-ST-4: an in-band error after commit is continued by a fallback that accepts prefill (OpenAI client, Anthropic continuation)", async () => {
    const { h } = await start({
      model: { primary: "openai/mock-gpt", fallbacks: ["anthropic/claude-sonnet-4-5"] },
      // Tokens apart, so the error comes after the first content reached the client (the commit).
      tokenDelayMs: 5,
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stream-error", afterTokens: 6 }] },
        { match: { key: KEYS.openaiB }, steps: ["reset"], then: "repeat-last" },
        { match: { api: "anthropic" }, answer: ANSWER, steps: ["ok"] },
      ],
    });
    expect((await openAIText(h)).text).toBe(ANSWER);
    const anthropicCalls = h.mock.requests().filter((request) => request.api === "anthropic");
    expect(anthropicCalls).toHaveLength(1);
    const last = messagesOf(anthropicCalls[0]?.body).at(-1);
    expect(last?.role).toBe("assistant");
    const prefill = (last?.content as { text?: string }[] | undefined)?.[0]?.text ?? "";
    expect(prefill.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(prefill)).toBe(true);
  });

  it("R-ST-4: an in-band error after commit on an Anthropic stream is continued on the next candidate", async () => {
    const { h } = await start({
      tokenDelayMs: 5,
      model: { primary: "anthropic/mock-claude", fallbacks: ["openai/mock-gpt"] },
      scenario: [
        { match: { api: "anthropic" }, answer: ANSWER, steps: [{ fault: "stream-error", afterTokens: 7 }] },
        { match: { api: "openai" }, answer: ANSWER, steps: ["ok"], then: "repeat-last" },
      ],
    });
    const { text, message } = await readMessageStream(
      h.anthropic.messages.stream({ model: "detour", max_tokens: 400, messages: [{ role: "user", content: "tell me a story" }] }),
    );
    expect(text).toBe(ANSWER);
    expect(message.content).toHaveLength(1);
    expect(message.stop_reason).toBe("end_turn");
    // The OpenAI fallback was asked to continue (instructed), not to start over.
    const continued = h.mock.requests().find((request) => request.api === "openai");
    expect(messagesOf(continued?.body).at(-2)?.role).toBe("assistant");
  });

  it("R-ST-4: a stall after commit is continued and completes well within 45 s of the last token", async () => {
    const { h, events } = await start({
      scenario: [
        { match: { key: KEYS.openaiA }, answer: ANSWER, steps: [{ fault: "stall", afterTokens: 8 }] },
        { match: { key: KEYS.openaiB }, answer: ANSWER, steps: ["ok"] },
      ],
    });
    let text = "";
    let lastTokenAt = 0;
    let gapMs = 0;
    for await (const chunk of await h.openai.chat.completions.create(streamed)) {
      const piece = chunk.choices[0]?.delta.content ?? "";
      if (piece === "") continue;
      const now = Date.now();
      if (lastTokenAt > 0) gapMs = Math.max(gapMs, now - lastTokenAt);
      lastTokenAt = now;
      text += piece;
    }
    expect(text).toBe(ANSWER);
    // streamStallSeconds is 0.3 s here; the default 30 s leaves room for one continuation inside 45 s.
    expect(gapMs).toBeLessThan(45_000);
    expect(await runFinished(events)).toMatchObject({ outcome: "succeeded", continuations: 1 });
    expect((await profileStats(h, "openai:a"))?.failureCounts?.timeout).toBe(1);
  });

  it("R-ST-5: (with R-ST-4) when the budget is spent the stream ends with the explicit error, never a clean finish, and the run counts as failed", async () => {
    const { h, events } = await start({
      gateway: { streamContinuations: 1 },
      scenario: [{ answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 5 }], then: "repeat-last" }],
    });
    let text = "";
    const error = await (async () => {
      for await (const chunk of await h.openai.chat.completions.create(streamed)) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(ANSWER.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(ANSWER.length);
    // One continuation was made (openai:b), it was cut too, and the budget of 1 ended the run.
    expect(h.mock.requests()).toHaveLength(2);
    expect(await runFinished(events)).toMatchObject({ outcome: "failed", continuations: 1 });
    expect((await profileStats(h, "openai:a"))?.errorCount).toBe(1);
    expect((await profileStats(h, "openai:b"))?.errorCount).toBe(1);
    const body = await metrics(h);
    expect(body).toMatch(/detour_requests_total\{agent="main",outcome="failed"\} 1/);
    expect(body).not.toMatch(/detour_requests_total\{agent="main",outcome="succeeded"\}/);
    expect(body).toMatch(/detour_stream_post_commit_failures_total\{provider="openai",model="mock-gpt"\} 1/);
  });

  it("R-ST-4: an Anthropic client whose stream nothing can continue gets event: error", async () => {
    const { h } = await start({
      model: { primary: "anthropic/mock-claude", fallbacks: [] },
      scenario: [{ answer: ANSWER, steps: [{ fault: "stream-cut", afterTokens: 5 }], then: "repeat-last" }],
    });
    const stream = h.anthropic.messages.stream({ model: "detour", max_tokens: 400, messages: [{ role: "user", content: "hi" }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
  });
});
