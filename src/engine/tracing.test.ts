import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { ScriptedProvider, httpError } from "../testing/scripted-provider.js";
import { UpstreamFailure } from "../ports/provider.js";
import { SeededRandom } from "../testing/seeded-random.js";
import { createDetour } from "./create-detour.js";
import { RunTracer } from "./tracing.js";

const CONFIG = { agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } } } };

async function setup(tracerProvider?: BasicTracerProvider) {
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-a" } });
  await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-b" } });
  const detour = await createDetour({
    config: CONFIG,
    store,
    clock: new FakeClock(),
    random: new SeededRandom(1),
    env: {},
    ...(tracerProvider ? { tracerProvider } : {}),
  });
  const openai = new ScriptedProvider({ id: "openai" });
  const anthropic = new ScriptedProvider({ id: "anthropic" });
  return { detour, openai, anthropic, attempt: ScriptedProvider.route([openai, anthropic]) };
}

function recordingProvider() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

afterEach(() => {
  trace.disable();
});

describe("tracing (OpenTelemetry spans from runner events)", () => {
  it("records a run span and one attempt span per attempt, with GenAI and Detour attributes", async () => {
    const { exporter, provider } = recordingProvider();
    const { detour, openai, attempt } = await setup(provider);
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    const out = await detour.runWith({ attempt });
    expect(out.provider).toBe("anthropic");

    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === "detour.run");
    const attempts = spans.filter((span) => span.name.startsWith("chat "));
    expect(run).toBeDefined();
    expect(run!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "openai/gpt-5",
      "gen_ai.response.model": "anthropic/claude-sonnet-4-6",
      "detour.outcome": "succeeded",
      "detour.fallback": true,
      "detour.agent.id": "main",
    });
    expect(attempts.map((span) => span.name)).toEqual(["chat openai/gpt-5", "chat anthropic/claude-sonnet-4-6"]);
    const [failed, answered] = attempts;
    expect(failed!.attributes).toMatchObject({
      "gen_ai.system": "openai",
      "gen_ai.request.model": "gpt-5",
      "detour.profile.id": "openai:a",
      "detour.reason": "rate_limit",
      "detour.outcome": "failed",
      "detour.cooldown.applied_ms": 30_000,
    });
    expect(failed!.status.code).toBe(2);
    expect(answered!.attributes).toMatchObject({ "gen_ai.system": "anthropic", "detour.outcome": "succeeded" });
    // Attempts are children of the run, in the run's trace.
    for (const span of attempts) {
      expect(span.spanContext().traceId).toBe(run!.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(run!.spanContext().spanId);
    }
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain("sk-a");
  });

  it("uses the globally registered SDK when none is passed, and usage lands on the open run span", async () => {
    const { exporter, provider } = recordingProvider();
    trace.setGlobalTracerProvider(provider);
    const tracer = new RunTracer();
    tracer.onEvent({
      type: "run_started",
      runId: "r1",
      agentId: "main",
      sessionId: null,
      requestedModel: "openai/gpt-5",
      chain: ["openai/gpt-5"],
      selectionSource: "configured_default",
    });
    tracer.recordUsage("r1", { inputTokens: 12, outputTokens: 3, cacheReadTokens: 8, reasoningTokens: 1 });
    tracer.onEvent({
      type: "run_finished",
      runId: "r1",
      agentId: "main",
      sessionId: null,
      outcome: "succeeded",
      provider: "openai",
      model: "gpt-5",
      profileId: null,
      failedCandidates: 0,
      durationMs: 5,
    });
    const [run] = exporter.getFinishedSpans();
    expect(run?.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.usage.cache_read.input_tokens": 8,
      "gen_ai.usage.reasoning.output_tokens": 1,
    });
    expect(tracer.openRuns).toBe(0);
  });

  it("is a no-op without an SDK: no span is started and nothing is kept per run", async () => {
    const { detour, attempt } = await setup();
    const tracer = new RunTracer();
    tracer.onEvent({
      type: "run_started",
      runId: "r2",
      agentId: "main",
      sessionId: null,
      requestedModel: "openai/gpt-5",
      chain: [],
      selectionSource: "configured_default",
    });
    expect(tracer.openRuns).toBe(0);
    await expect(detour.runWith({ attempt })).resolves.toMatchObject({ result: expect.anything() });
  });

  it("ends a failed run with an error status", async () => {
    const { exporter, provider } = recordingProvider();
    const { detour, openai, anthropic, attempt } = await setup(provider);
    openai.always({}, httpError(503, "overloaded"));
    anthropic.always({}, httpError(503, "overloaded"));
    await expect(detour.runWith({ attempt })).rejects.toThrow();
    const run = exporter.getFinishedSpans().find((span) => span.name === "detour.run");
    expect(run?.attributes["detour.outcome"]).toBe("failed");
    expect(run?.status.code).toBe(2);
  });

  it("R-ST-4: a continued stream's spans say which attempt committed, which continued it, and how many seams the run had", async () => {
    const { exporter, provider } = recordingProvider();
    const store = new MemoryStateStore();
    for (const id of ["openai:a", "openai:b"]) {
      await store.upsertProfile({ id, credential: { type: "api_key", provider: "openai", key: `sk-test-${id}-0123456789` } });
    }
    const detour = await createDetour({
      config: { agents: { defaults: { model: { primary: "openai/gpt-5" } } }, auth: { order: { openai: ["openai:a", "openai:b"] } } },
      store,
      clock: new FakeClock(),
      random: new SeededRandom(1),
      env: {},
      providers: [],
      tracerProvider: provider,
    });
    const out = await detour.runWith({
      continuations: { max: 2, canContinue: () => true },
      attempt: async (context) => {
        await context.commit();
        if (context.profileId === "openai:a") throw new UpstreamFailure("cut", { provider: "openai", code: "ECONNRESET", message: "cut" });
        return "rest";
      },
    });
    expect(out.continuations).toBe(1);
    const spans = exporter.getFinishedSpans();
    const attempts = spans.filter((span) => span.name.startsWith("chat "));
    expect(
      attempts.map((span) => [
        span.attributes["detour.profile.id"],
        span.attributes["detour.stream.committed"],
        span.attributes["detour.continuation"],
      ]),
    ).toEqual([
      ["openai:a", true, undefined],
      ["openai:b", true, 1],
    ]);
    expect(spans.find((span) => span.name === "detour.run")?.attributes).toMatchObject({
      "detour.outcome": "succeeded",
      "detour.continuations": 1,
    });
  });
});
