import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import type { CanonicalRequest, CanonicalStreamEvent } from "../ports/canonical.js";
import { UpstreamFailure, type Provider, type ProviderCallContext } from "../ports/provider.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { SeededRandom } from "../testing/seeded-random.js";
import { CONTINUE_INSTRUCTION } from "./continuation-request.js";
import { createDetour } from "../engine/create-detour.js";
import { StreamRelay } from "./stream-relay.js";
import {
  continuationSegment,
  continuationSettingsFromConfig,
  openContinuation,
  trimmedContinuation,
  type CommittedContinuation,
} from "./stream-continuation.js";

const request: CanonicalRequest = { messages: [{ role: "user", content: [{ type: "text", text: "story" }] }] };
const clock = new FakeClock();

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* eventsOf(...events: CanonicalStreamEvent[]): AsyncGenerator<CanonicalStreamEvent> {
  yield* events;
}

function committed(...events: CanonicalStreamEvent[]): CommittedContinuation {
  return { head: [], rest: eventsOf(...events), abort() {} };
}

describe("R-ST-4 continuation settings: prefill from config, else the catalogue, never from the provider API", () => {
  const { config } = parseConfig({
    models: {
      providers: {
        anthropic: { api: "anthropic-messages", models: [{ id: "claude-no-prefill", supportsPrefill: false }] },
        openai: { api: "openai-chat", models: [{ id: "gpt-prefill", supportsPrefill: true }] },
      },
    },
  });
  const settings = continuationSettingsFromConfig(config);

  it("R-ST-4: uses the declaration, else the catalogue; an unknown model is never assumed to take a prefill", () => {
    expect(settings.max).toBe(2);
    expect(settings.modeFor("anthropic", "claude-sonnet-4-5")).toBe("prefill");
    expect(settings.modeFor("anthropic", "claude-sonnet-4-6")).toBe("instructed");
    expect(settings.modeFor("anthropic", "claude-opus-4-6")).toBe("instructed");
    expect(settings.modeFor("anthropic", "claude-no-prefill")).toBe("instructed");
    expect(settings.modeFor("anthropic", "some-unknown-model")).toBe("instructed");
    expect(settings.modeFor("openai", "gpt-4o")).toBe("instructed");
    expect(settings.modeFor("openai", "gpt-prefill")).toBe("prefill");
  });

  it("a prefill 400 is answered with the instructed form, and remembered", async () => {
    const sent: CanonicalRequest[] = [];
    const opened = await openContinuation({
      request,
      delivered: { text: "Once upon", toolCalls: [] },
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      settings,
      clock,
      async open(continued) {
        sent.push(continued);
        if (continued.messages.at(-1)?.role === "assistant") {
          throw new UpstreamFailure("prefill", {
            provider: "anthropic",
            status: 400,
            message: "does not support assistant message prefill",
          });
        }
        return committed({ type: "text-delta", text: " a time" });
      },
    });
    expect(opened.head).toEqual([]);
    expect(sent.map((item) => item.messages.at(-1)?.role)).toEqual(["assistant", "user"]);
    expect(sent[1]?.messages.at(-1)?.content).toEqual([{ type: "text", text: CONTINUE_INSTRUCTION }]);
    expect(settings.modeFor("anthropic", "claude-sonnet-4-5")).toBe("instructed");
  });

  it("any other failure is the attempt's own: no second call", async () => {
    let calls = 0;
    const failure = new UpstreamFailure("overloaded", { provider: "anthropic", status: 529, message: "overloaded" });
    await expect(
      openContinuation({
        request,
        delivered: { text: "Once", toolCalls: [] },
        provider: "anthropic",
        model: "claude-opus-4-1",
        settings,
        clock,
        async open() {
          calls += 1;
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
  });
});

describe("R-ST-4 trimmedContinuation", () => {
  it("drops a second message-start and reasoning, trims the text, numbers tool calls after the delivered ones", async () => {
    const events = await collect(
      trimmedContinuation(
        eventsOf(
          { type: "message-start", id: "m2", model: "other" },
          { type: "thinking-delta", index: 0, text: "hmm" },
          { type: "text-delta", text: "Once upon" },
          { type: "text-delta", text: " a time" },
          { type: "tool-call-delta", index: 0, id: "call_2", name: "look", argumentsDelta: "{}" },
          { type: "finish", reason: "tool_calls" },
        ),
        { text: "Once upon", toolCalls: [{ index: 0, id: "call_1", name: "seen", arguments: "{}" }] },
        () => {},
      ),
    );
    expect(events).toEqual([
      { type: "text-delta", text: " a time" },
      { type: "tool-call-delta", index: 1, id: "call_2", name: "look", argumentsDelta: "{}" },
      { type: "finish", reason: "tool_calls" },
    ]);
  });

  it("text still held at the finish is released with it", async () => {
    const events = await collect(
      trimmedContinuation(
        eventsOf({ type: "text-delta", text: " upon" }, { type: "finish", reason: "stop" }),
        { text: "Once upon", toolCalls: [] },
        () => {},
      ),
    );
    // " upon" could have been the start of a longer repeat; at the finish it is taken as the repeat it is.
    expect(events).toEqual([{ type: "finish", reason: "stop" }]);
  });
});

describe("R-ST-4 StreamRelay", () => {
  it("plays segment after segment; a cut tool call makes the stream not continuable (tool-call deltas are never repeated)", async () => {
    const relay = new StreamRelay<CanonicalStreamEvent>();
    const first = continuationSegment(
      committed({ type: "tool-call-delta", index: 0, id: "c", name: "n", argumentsDelta: '{"a"' }),
      { text: "", toolCalls: [] },
      (event) => event,
    );
    const delivered = { text: "", toolCalls: [{ index: 0, arguments: '{"a"' }] };
    const played = relay.play({ ...first, delivered: () => delivered });
    const output = collect(relay.output());
    await expect(played).resolves.toBeUndefined();
    expect(relay.continuable).toBe(false);
    relay.end();
    expect(await output).toHaveLength(1);
  });

  it("with no continuation the stream ends with the first failure", async () => {
    const relay = new StreamRelay<string>();
    const cut = new Error("cut");
    async function* failing(): AsyncGenerator<string> {
      yield "Once";
      throw cut;
    }
    const played = relay.play({
      head: [],
      rest: failing(),
      delivered: () => ({ text: "Once", toolCalls: [] }),
      complete: () => false,
      abort() {},
    });
    const reading = (async () => {
      const seen: string[] = [];
      try {
        for await (const item of relay.output()) seen.push(item);
      } catch (error) {
        return { seen, error };
      }
      return { seen, error: undefined };
    })();
    await expect(played).rejects.toBe(cut);
    expect(relay.continuable).toBe(true);
    relay.end(new Error("the chain is exhausted"));
    expect(await reading).toEqual({ seen: ["Once"], error: cut });
  });
});

/** An upstream whose profile `openai:a` stops after two words and never says more; `openai:b` answers. */
function stallingProvider(): Provider & { requests: CanonicalRequest[] } {
  const requests: CanonicalRequest[] = [];
  return {
    id: "openai",
    api: "openai-chat",
    requests,
    complete: () => Promise.reject(new Error("streams only")),
    async *stream(streamed: CanonicalRequest, context: ProviderCallContext & { profileId?: string }) {
      requests.push(streamed);
      yield { type: "message-start", id: `m${requests.length}`, model: "gpt-a" };
      if (context.profileId === "openai:a") {
        yield { type: "text-delta", text: "Once" };
        yield { type: "text-delta", text: " upon" };
        await new Promise((_, reject) => context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true }));
        return;
      }
      for (const text of [" a", " time."]) yield { type: "text-delta", text };
      yield { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2 } };
    },
  };
}

describe("R-ST-4 with the default timings (FakeClock)", () => {
  it("R-ST-4: a stall after commit is caught by the 30 s streamStallSeconds and continued within 45 s of the last token", async () => {
    const fake = new FakeClock();
    const store = new MemoryStateStore();
    for (const id of ["openai:a", "openai:b"]) {
      await store.upsertProfile({ id, credential: { type: "api_key", provider: "openai", key: `sk-test-${id}-0123456789` } });
    }
    const provider = stallingProvider();
    const detour = await createDetour({
      config: {
        agents: { defaults: { model: { primary: "openai/gpt-a" } } },
        auth: { order: { openai: ["openai:a", "openai:b"] } },
        state: { backend: "memory" },
      },
      store,
      clock: fake,
      random: new SeededRandom(1),
      providers: [provider],
      env: {},
    });
    expect(detour.config.gateway.streamStallSeconds).toBe(30);
    const outcome = await detour.run({ stream: true, request });
    const startedAt = fake.now();
    let text = "";
    let lastTokenBeforeSeamAt = 0;
    let doneAt: number | undefined;
    const reading = (async () => {
      for await (const event of outcome.result.events) {
        if (event.type !== "text-delta") continue;
        text += event.text;
        if (text === "Once upon") lastTokenBeforeSeamAt = fake.now();
      }
      doneAt = fake.now();
    })();
    await fake.advanceAsync(0);
    expect(text).toBe("Once upon");
    await fake.advanceAsync(29_000);
    expect(doneAt).toBeUndefined();
    await fake.advanceAsync(16_000);
    await reading;
    expect(text).toBe("Once upon a time.");
    expect(lastTokenBeforeSeamAt).toBe(startedAt);
    expect((doneAt as number) - lastTokenBeforeSeamAt).toBeGreaterThanOrEqual(30_000);
    expect((doneAt as number) - lastTokenBeforeSeamAt).toBeLessThanOrEqual(45_000);
    expect((await store.getUsageStats("openai:a"))?.failureCounts?.timeout).toBe(1);
    expect(provider.requests.at(-1)?.messages.at(-2)).toEqual({ role: "assistant", content: [{ type: "text", text: "Once upon" }] });
    await detour.close();
  });
});
