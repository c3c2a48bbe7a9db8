/**
 * R-ST-6 at the engine: library runs through `createDetour` (the canonical lane), FakeClock-driven. A
 * non-streamed run is streamed upstream: silence fails over at the first-token watchdog, whose default
 * follows the model (15 s, 60 s for catalogue reasoning models); a generation that keeps producing tokens is
 * bounded only by the provider's `timeoutSeconds`.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../config/index.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import { UpstreamFailure, type Provider, type ProviderCallContext } from "../ports/provider.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { clockedDetour, trackSettlement } from "./__fixtures__/clocked-detour.js";

const request: CanonicalRequest = { messages: [{ role: "user", content: [{ type: "text", text: "write a long story" }] }] };
const NEVER = Number.MAX_SAFE_INTEGER;

/** How one model answers: its first token after `firstTokenMs`, then one token every `tokenIntervalMs`. */
interface Pace {
  firstTokenMs: number;
  tokens: number;
  tokenIntervalMs: number;
  /** Nothing more after this many tokens. */
  stallAfterTokens?: number;
  /** `stream: true` gets a 400 naming stream (a model that cannot stream). */
  refusesStream?: boolean;
}

/** A provider whose answers arrive on the FakeClock, streamed or (for `complete`) whole at the end. */
class PacedProvider implements Provider {
  readonly api = "openai-chat" as const;
  readonly calls: { model: string; mode: "complete" | "stream"; at: number }[] = [];

  constructor(
    readonly id: string,
    private readonly clock: FakeClock,
    private readonly paces: Record<string, Pace>,
  ) {}

  #pace(model: string): Pace {
    const pace = this.paces[model];
    if (!pace) throw new Error(`no pace for ${model}`);
    return pace;
  }

  async complete(_request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    this.calls.push({ model: context.model, mode: "complete", at: this.clock.now() });
    const pace = this.#pace(context.model);
    await this.clock.sleep(pace.firstTokenMs + pace.tokenIntervalMs * (pace.tokens - 1), context.signal);
    return {
      id: `${this.id}-plain`,
      model: context.model,
      content: [{ type: "text", text: words(pace.tokens) }],
      finishReason: "stop",
      usage: { inputTokens: 5, outputTokens: pace.tokens },
    };
  }

  async *stream(_request: CanonicalRequest, context: ProviderCallContext): AsyncIterable<CanonicalStreamEvent> {
    this.calls.push({ model: context.model, mode: "stream", at: this.clock.now() });
    const pace = this.#pace(context.model);
    if (pace.refusesStream) {
      const message = "Unsupported value: 'stream' does not support true with this model.";
      throw new UpstreamFailure(message, { provider: this.id, status: 400, code: "unsupported_value", message });
    }
    // Lifecycle frames come at once; content is what the watchdog waits for (R-ST-1).
    yield { type: "message-start", id: `${this.id}-streamed`, model: context.model };
    await this.clock.sleep(pace.firstTokenMs, context.signal);
    for (let index = 0; index < pace.tokens; index += 1) {
      if (index > 0) await this.clock.sleep(pace.tokenIntervalMs, context.signal);
      if (index === pace.stallAfterTokens) await this.clock.sleep(NEVER, context.signal);
      yield { type: "text-delta", text: index === 0 ? "w0" : ` w${index}` };
    }
    yield { type: "finish", reason: "stop", usage: { inputTokens: 5, outputTokens: pace.tokens } };
  }
}

/**
 * The same answers pushed (`pushStream`, as the built-in providers offer it): an assembled answer is read
 * through the push path, whose watchdogs must behave exactly like the pulled one's.
 */
class PushingPacedProvider extends PacedProvider {
  async pushStream(request: CanonicalRequest, context: ProviderCallContext, push: (event: CanonicalStreamEvent) => boolean): Promise<void> {
    for await (const event of this.stream(request, context)) if (!push(event)) return;
  }
}

let pushing = false;

function words(count: number): string {
  return Array.from({ length: count }, (_, index) => `w${index}`).join(" ");
}

const ANSWERS_AT_ONCE: Pace = { firstTokenMs: 10, tokens: 3, tokenIntervalMs: 10 };

async function engine(options: {
  primary: string;
  paces: Record<string, Pace>;
  gateway?: DetourConfigInput["gateway"];
  openaiTimeoutSeconds?: number;
}) {
  const clock = new FakeClock();
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-silence-openai-0123456789" } });
  await store.upsertProfile({
    id: "anthropic:a",
    credential: { type: "api_key", provider: "anthropic", key: "sk-ant-silence-0123456789" },
  });
  const Paced = pushing ? PushingPacedProvider : PacedProvider;
  const openai = new Paced("openai", clock, options.paces);
  const anthropic = new Paced("anthropic", clock, { "claude-fallback": ANSWERS_AT_ONCE });
  const { detour, events } = await clockedDetour({
    clock,
    store,
    providers: [openai, anthropic],
    config: {
      models: { providers: { openai: { timeoutSeconds: options.openaiTimeoutSeconds ?? 120 } } },
      agents: {
        defaults: {
          model: { primary: options.primary, fallbacks: ["anthropic/claude-fallback"] },
          // The first-token watchdog alone: no hedge races the silent attempt (R-HG-1 has its own tests).
          modelFailover: {
            retrySameProfileOnTimeout: 0,
            retrySameProfileOnServerError: 0,
            shortWaitSeconds: 0,
            waitForCooldownMaxSeconds: 0,
            hedging: { enabled: false },
          },
        },
      },
      ...(options.gateway ? { gateway: options.gateway } : {}),
    },
  });
  return { clock, detour, openai, anthropic, events, store };
}

describe.each([
  ["pulled", false],
  ["pushed", true],
])("the first-token watchdog of non-streamed runs, %s (R-ST-6)", (_read, push) => {
  beforeEach(() => {
    pushing = push;
  });

  it("R-ST-6: a non-streamed library run whose ordinary model sends nothing fails over at 15 s, the default, not at the provider's 120 s", async () => {
    const { clock, detour, anthropic, events, store } = await engine({
      primary: "openai/gpt-4o-mini",
      paces: { "gpt-4o-mini": { firstTokenMs: NEVER, tokens: 1, tokenIntervalMs: 0 } },
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(14_900);
    expect(run.settledAfterMs).toBeUndefined();
    await clock.advanceAsync(200);
    expect(run.error).toBeUndefined();
    expect(run.settledAfterMs).toBeGreaterThanOrEqual(15_000);
    expect(run.settledAfterMs).toBeLessThan(15_100);
    const outcome = run.value!;
    expect(outcome.provider).toBe("anthropic");
    expect(outcome.result.content).toEqual([{ type: "text", text: "w0 w1 w2" }]);
    expect(outcome.attempts.map((attempt) => [attempt.provider, attempt.model, attempt.reason])).toEqual([
      ["openai", "gpt-4o-mini", "timeout"],
    ]);
    expect(anthropic.calls.map((call) => call.mode)).toEqual(["stream"]);
    // The decision log, the run's outcome and the profile agree with what the caller got.
    const decisions = events.filter((event) => event.type === "model_fallback_decision");
    expect(decisions.map((event) => [event.candidateModel, event.decision, event.reason])).toEqual([
      ["openai/gpt-4o-mini", "candidate_failed", "timeout"],
      ["anthropic/claude-fallback", "candidate_succeeded", null],
    ]);
    const finished = events.find((event) => event.type === "run_finished");
    expect(finished).toMatchObject({ outcome: "succeeded", provider: "anthropic", model: "claude-fallback", failedCandidates: 1 });
    expect((await store.getUsageStats("openai:a"))?.failureCounts?.timeout).toBe(1);
  });

  it("R-ST-6: a slow-to-start ordinary model is handed to the fallback at 15 s while a catalogue reasoning model (openai/o3) is not cut before 60 s", async () => {
    const slowStart: Pace = { firstTokenMs: 45_000, tokens: 3, tokenIntervalMs: 100 };
    const ordinary = await engine({ primary: "openai/gpt-4o-mini", paces: { "gpt-4o-mini": slowStart } });
    const ordinaryRun = trackSettlement(ordinary.clock, ordinary.detour.run({ request }));
    await ordinary.clock.advanceAsync(16_000);
    expect(ordinaryRun.value?.provider).toBe("anthropic");
    expect(ordinaryRun.settledAfterMs).toBeLessThan(15_100);

    const reasoning = await engine({ primary: "openai/o3", paces: { o3: slowStart } });
    const reasoningRun = trackSettlement(reasoning.clock, reasoning.detour.run({ request }));
    await reasoning.clock.advanceAsync(59_000);
    expect(reasoningRun.error).toBeUndefined();
    const outcome = reasoningRun.value!;
    // It thought for 45 s and then answered: no failover, nothing recorded against it.
    expect(outcome.provider).toBe("openai");
    expect(outcome.model).toBe("o3");
    expect(outcome.attempts).toEqual([]);
    expect(outcome.result.content).toEqual([{ type: "text", text: "w0 w1 w2" }]);
    expect(reasoning.anthropic.calls).toEqual([]);
  });

  it("R-ST-6: a catalogue reasoning model that stays silent is handed on at 60 s", async () => {
    const { clock, detour } = await engine({ primary: "openai/o3", paces: { o3: { firstTokenMs: NEVER, tokens: 1, tokenIntervalMs: 0 } } });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(59_900);
    expect(run.settledAfterMs).toBeUndefined();
    await clock.advanceAsync(200);
    expect(run.value?.provider).toBe("anthropic");
    expect(run.value?.attempts.map((attempt) => attempt.reason)).toEqual(["timeout"]);
  });

  it("R-ST-6: a configured gateway.ttftTimeoutSeconds wins over the per-model default, for reasoning models too", async () => {
    const { clock, detour } = await engine({
      primary: "openai/o3",
      paces: { o3: { firstTokenMs: NEVER, tokens: 1, tokenIntervalMs: 0 } },
      gateway: { ttftTimeoutSeconds: 5 },
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(5_100);
    expect(run.value?.provider).toBe("anthropic");
    expect(run.settledAfterMs).toBeGreaterThanOrEqual(5_000);
  });

  it("R-ST-6: a 3-minute generation that streams steadily is not cut by the first-token or stall watchdogs", async () => {
    const { clock, detour, openai, events } = await engine({
      primary: "openai/gpt-4o-mini",
      // One token a second for three minutes, within a provider deadline of ten minutes.
      paces: { "gpt-4o-mini": { firstTokenMs: 2_000, tokens: 181, tokenIntervalMs: 1_000 } },
      openaiTimeoutSeconds: 600,
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(181_900);
    expect(run.settledAfterMs).toBeUndefined();
    await clock.advanceAsync(200);
    expect(run.error).toBeUndefined();
    expect(run.settledAfterMs).toBeGreaterThanOrEqual(182_000);
    const outcome = run.value!;
    expect(outcome.provider).toBe("openai");
    expect(outcome.attempts).toEqual([]);
    expect(outcome.result.content).toEqual([{ type: "text", text: words(181) }]);
    expect(outcome.result.usage).toEqual({ inputTokens: 5, outputTokens: 181 });
    expect(openai.calls.map((call) => call.mode)).toEqual(["stream"]);
    expect(events.filter((event) => event.type === "attempt_finished").map((event) => event.outcome)).toEqual(["succeeded"]);
  });

  it("R-ST-6: the provider's timeoutSeconds still bounds a steady non-streamed generation in total", async () => {
    const { clock, detour } = await engine({
      primary: "openai/gpt-4o-mini",
      paces: { "gpt-4o-mini": { firstTokenMs: 2_000, tokens: 181, tokenIntervalMs: 1_000 } },
      openaiTimeoutSeconds: 120,
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(121_000);
    expect(run.value?.provider).toBe("anthropic");
    expect(run.value?.attempts.map((attempt) => attempt.reason)).toEqual(["timeout"]);
    expect(run.settledAfterMs).toBeGreaterThanOrEqual(120_000);
  });

  it("R-ST-6: a non-streamed answer that stalls after its first tokens fails over as a whole (nothing reached the caller)", async () => {
    const { clock, detour } = await engine({
      primary: "openai/gpt-4o-mini",
      paces: { "gpt-4o-mini": { firstTokenMs: 100, tokens: 10, tokenIntervalMs: 100, stallAfterTokens: 4 } },
      gateway: { streamStallSeconds: 30 },
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(31_000);
    expect(run.value?.provider).toBe("anthropic");
    expect(run.value?.result.content).toEqual([{ type: "text", text: "w0 w1 w2" }]);
    expect(run.value?.attempts.map((attempt) => attempt.reason)).toEqual(["timeout"]);
  });

  it("R-ST-6: streamed runs get the per-model first-token default too: 15 s for an ordinary model, longer for a reasoning one", async () => {
    const startsAt20s: Pace = { firstTokenMs: 20_000, tokens: 3, tokenIntervalMs: 10 };
    const ordinary = await engine({ primary: "openai/gpt-4o-mini", paces: { "gpt-4o-mini": startsAt20s } });
    const ordinaryRun = trackSettlement(ordinary.clock, ordinary.detour.run({ request, stream: true }));
    await ordinary.clock.advanceAsync(15_100);
    expect(ordinaryRun.value?.provider).toBe("anthropic");
    expect(ordinaryRun.value?.attempts.map((attempt) => attempt.reason)).toEqual(["timeout"]);

    const reasoning = await engine({ primary: "openai/o3", paces: { o3: startsAt20s } });
    const reasoningRun = trackSettlement(reasoning.clock, reasoning.detour.run({ request, stream: true }));
    await reasoning.clock.advanceAsync(20_100);
    expect(reasoningRun.value?.provider).toBe("openai");
    expect(reasoningRun.value?.attempts).toEqual([]);
  });

  it("R-ST-6: a model that refuses a stream is called plain (bounded by its timeoutSeconds) and remembered", async () => {
    const { clock, detour, openai } = await engine({
      primary: "openai/gpt-4o-mini",
      paces: { "gpt-4o-mini": { firstTokenMs: 20_000, tokens: 3, tokenIntervalMs: 10, refusesStream: true } },
    });
    const first = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(21_000);
    expect(first.value?.provider).toBe("openai");
    expect(first.value?.result.content).toEqual([{ type: "text", text: "w0 w1 w2" }]);
    const second = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(21_000);
    expect(second.value?.provider).toBe("openai");
    expect(openai.calls.map((call) => call.mode)).toEqual(["stream", "complete", "complete"]);
  });
});
