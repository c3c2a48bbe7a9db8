import { describe, expect, it } from "vitest";
import type { DetourEvent } from "../ports/events.js";
import { MAX_TRACE_HEADROOM_READINGS, parseRunTraceLine, runTraceLine, traceHeadroomReadings } from "../core/run-trace.js";
import type { HeadroomReading } from "../core/headroom/reading.js";
import { hashSessionKey } from "../ports/trace-store.js";
import { readFileSync } from "node:fs";
import { RunTraceBuilder, TRACED_EVENT_TYPES } from "./run-trace-builder.js";

const T0 = 1_760_000_000_000;
const run = { runId: "run-7", agentId: "main" };

/** A run whose primary answers 429 with a stated reset, then a fallback streams the answer. */
function fallbackRunEvents(): [DetourEvent, number][] {
  return [
    [
      {
        type: "run_started",
        ...run,
        sessionId: "user-42:chat",
        requestedModel: "anthropic/claude-sonnet-4-6",
        chain: ["anthropic/claude-sonnet-4-6", "openai/gpt-5"],
        selectionSource: "config",
        dialect: "anthropic",
        stream: true,
        estimatedInputTokens: 900,
      },
      T0,
    ],
    [{ type: "attempt_started", ...run, provider: "anthropic", model: "claude-sonnet-4-6", profileId: "anthropic:work" }, T0 + 5],
    [
      {
        type: "attempt_finished",
        ...run,
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        profileId: "anthropic:work",
        outcome: "failed",
        reason: "rate_limit",
        status: 429,
        durationMs: 95,
        statedResetAt: T0 + 60_000,
      },
      T0 + 100,
    ],
    [
      {
        type: "model_fallback_decision",
        decision: "candidate_failed",
        ...run,
        sessionId: "user-42:chat",
        requestedModel: "anthropic/claude-sonnet-4-6",
        candidateModel: "anthropic/claude-sonnet-4-6",
        attemptIndex: 1,
        attemptTotal: 2,
        profileId: "anthropic:work",
        reason: "rate_limit",
        status: 429,
        code: null,
        errorPreview: "SECRET PROMPT QUOTED: tell me about sk-live-123",
        nextCandidate: "openai/gpt-5",
        isPrimary: true,
        fallbackStepFromModel: "anthropic/claude-sonnet-4-6",
        fallbackStepToModel: "openai/gpt-5",
        fallbackStepFromFailureReason: "rate_limit",
        fallbackStepFromFailureDetail: "SECRET PROMPT QUOTED",
        fallbackStepChainPosition: 1,
        fallbackStepFinalOutcome: "next_fallback",
        continuation: null,
      },
      T0 + 101,
    ],
    [
      { type: "short_wait", ...run, provider: "openai", model: "gpt-5", profileId: "openai:default", reason: "rate_limit", waitMs: 250 },
      T0 + 110,
    ],
    [{ type: "attempt_started", ...run, provider: "openai", model: "gpt-5", profileId: "openai:default" }, T0 + 360],
    [{ type: "attempt_started", ...run, provider: "openai", model: "gpt-5", profileId: "openai:spare" }, T0 + 900],
    [
      {
        type: "attempt_finished",
        ...run,
        provider: "openai",
        model: "gpt-5",
        profileId: "openai:spare",
        outcome: "aborted",
        reason: null,
        status: null,
        durationMs: 40,
        hedge: true,
      },
      T0 + 940,
    ],
    [
      {
        type: "attempt_finished",
        ...run,
        provider: "openai",
        model: "gpt-5",
        profileId: "openai:default",
        outcome: "succeeded",
        reason: null,
        status: 200,
        durationMs: 1400,
        committed: true,
        firstTokenMs: 420,
        inputTokens: 880,
        outputTokens: 300,
        costUsd: 0.0061,
      },
      T0 + 1760,
    ],
    [
      {
        type: "notice",
        ...run,
        sessionId: "user-42:chat",
        kind: "fallback",
        text: "Answer text never belongs here",
        selectedModel: "anthropic/claude-sonnet-4-6",
        activeModel: "openai/gpt-5",
      },
      T0 + 1761,
    ],
    [{ type: "attempt_started", ...{ runId: "other-run", agentId: "main" }, provider: "x", model: "y", profileId: null }, T0 + 1762],
    [
      {
        type: "run_finished",
        ...run,
        sessionId: "user-42:chat",
        outcome: "succeeded",
        provider: "openai",
        model: "gpt-5",
        profileId: "openai:default",
        failedCandidates: 1,
        durationMs: 1770,
      },
      T0 + 1770,
    ],
  ];
}

function build(events: [DetourEvent, number][]) {
  const builder = new RunTraceBuilder();
  for (const [event, at] of events) builder.observe(event, at);
  return builder;
}

describe("run trace v1", () => {
  it("R-OB-4 the recorder's event filter keeps every event type the builder reads: a run's trace is the same without the rest", () => {
    // Every type the builder branches on is in the set (read from its source, so a new branch cannot be forgotten).
    const source = readFileSync(new URL("./run-trace-builder.ts", import.meta.url), "utf8");
    const observe = source.slice(source.indexOf("  observe(event"), source.indexOf("/** The finished trace"));
    const read = [...observe.matchAll(/case "([a-z_]+)"|event\.type === "([a-z_]+)"/g)].map((match) => match[1] ?? match[2]);
    expect(read.length).toBeGreaterThan(10);
    for (const type of read) expect(TRACED_EVENT_TYPES.has(type as DetourEvent["type"]), type).toBe(true);
    const events = fallbackRunEvents();
    const filtered = events.filter(([event]) => TRACED_EVENT_TYPES.has(event.type));
    expect(build(filtered).finish()).toEqual(build(events).finish());
  });

  it("R-OB-4 a run's events become its trace: request facts, attempt offsets, outcomes, reset, first token, tokens, cost, hedges, waits", () => {
    const trace = build(fallbackRunEvents()).finish();
    expect(trace).toMatchObject({
      v: 1,
      runId: "run-7",
      agentId: "main",
      startedAt: T0,
      sessionHash: hashSessionKey("user-42:chat"),
      request: { requestedModel: "anthropic/claude-sonnet-4-6", dialect: "anthropic", stream: true, estimatedInputTokens: 900 },
      chain: ["anthropic/claude-sonnet-4-6", "openai/gpt-5"],
      outcome: "succeeded",
      durationMs: 1770,
      answeredBy: { provider: "openai", model: "gpt-5", profileId: "openai:default" },
      waits: [{ offsetMs: 110, kind: "short_wait", waitMs: 250 }],
      notices: [{ offsetMs: 1761, kind: "fallback", activeModel: "openai/gpt-5" }],
      continuations: 0,
      hedges: 1,
      costUsd: 0.0061,
    });
    expect(trace!.attempts.map((a) => [a.offsetMs, a.profileId, a.outcome, a.status, a.reason])).toEqual([
      [5, "anthropic:work", "failed", 429, "rate_limit"],
      [360, "openai:default", "succeeded", 200, null],
      [900, "openai:spare", "aborted", null, null],
    ]);
    expect(trace!.attempts[0]!.statedResetAt).toBe(T0 + 60_000);
    expect(trace!.attempts[1]).toMatchObject({
      firstTokenMs: 420,
      durationMs: 1400,
      inputTokens: 880,
      outputTokens: 300,
      costUsd: 0.0061,
      committed: true,
    });
    expect(trace!.attempts[2]!.hedge).toBe(true);
  });

  it("R-OB-4 a trace holds no prompt, answer or error text and not the session key itself", () => {
    const line = runTraceLine(build(fallbackRunEvents()).finish()!);
    expect(line).not.toContain("SECRET");
    expect(line).not.toContain("sk-live");
    expect(line).not.toContain("Answer text");
    expect(line).not.toContain("user-42");
    expect(JSON.parse(line).v).toBe(1);
  });

  it("R-OB-4 a trace is finished only by its run_finished; a failed run names no answer", () => {
    const events = fallbackRunEvents().slice(0, 4);
    const builder = build(events);
    expect(builder.finish()).toBeUndefined();
    builder.observe(
      {
        type: "run_finished",
        ...run,
        sessionId: null,
        outcome: "failed",
        provider: null,
        model: null,
        profileId: null,
        failedCandidates: 2,
        durationMs: 300,
      },
      T0 + 300,
    );
    expect(builder.finish()).toMatchObject({ outcome: "failed", answeredBy: null, durationMs: 300 });
  });

  it("R-OB-4 session hashes link runs of one session and differ between sessions", () => {
    expect(hashSessionKey("a")).toBe(hashSessionKey("a"));
    expect(hashSessionKey("a")).not.toBe(hashSessionKey("b"));
    expect(hashSessionKey("a")).toMatch(/^[0-9a-f]{32}$/);
  });

  it("R-OB-4 the answer's usage, priced after the run, lands on the attempt that answered", () => {
    const builder = build(fallbackRunEvents());
    const usage = {
      type: "usage_recorded",
      ...run,
      provider: "openai",
      model: "gpt-5",
      profileId: "openai:default",
      inputTokens: 910,
      outputTokens: 320,
      costUsd: 0.007,
    } as const;
    builder.observe(usage, T0 + 1_800);
    // Another run's usage, or a model that did not answer, changes nothing.
    builder.observe({ ...usage, runId: "other-run", costUsd: 9 }, T0 + 1_801);
    builder.observe({ ...usage, provider: "anthropic", model: "claude-sonnet-4-6", profileId: "anthropic:work", costUsd: 9 }, T0 + 1_802);
    const trace = builder.finish()!;
    expect(trace.attempts[1]).toMatchObject({ inputTokens: 910, outputTokens: 320, costUsd: 0.007 });
    expect(trace.attempts[0]!.costUsd).toBeNull();
    expect(trace.costUsd).toBe(0.007);
  });

  it("R-OB-4 the headroom readings an attempt's answer stated land on that attempt, bounded; old lines still read", () => {
    const events = fallbackRunEvents();
    const readings = traceHeadroomReadings([
      {
        window: "tokens",
        family: "anthropic",
        model: "claude-sonnet-4-6",
        remainingShare: 0.4,
        remaining: 400,
        limit: 1000,
        resetAt: T0 + 30_000,
        readAt: T0 + 90,
      },
      {
        window: "requests",
        family: "anthropic",
        model: "claude-sonnet-4-6",
        remainingShare: 0,
        remaining: 0,
        limit: 50,
        resetAt: T0 + 60_000,
        readAt: T0 + 90,
      },
    ]);
    // The 429's headers arrive before its outcome: between attempt_started and attempt_finished.
    events.splice(2, 0, [
      { type: "headroom_read", ...run, provider: "anthropic", model: "claude-sonnet-4-6", profileId: "anthropic:work", readings },
      T0 + 99,
    ]);
    // Another run's readings go nowhere.
    events.splice(3, 0, [
      {
        type: "headroom_read",
        runId: "other-run",
        agentId: "main",
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        profileId: "anthropic:work",
        readings,
      },
      T0 + 99,
    ]);
    const trace = build(events).finish()!;
    expect(trace.attempts[0]!.headroom).toEqual([
      { window: "requests", model: "claude-sonnet-4-6", remainingShare: 0, remaining: 0, limit: 50, status: null, resetAt: T0 + 60_000 },
      {
        window: "tokens",
        model: "claude-sonnet-4-6",
        remainingShare: 0.4,
        remaining: 400,
        limit: 1000,
        status: null,
        resetAt: T0 + 30_000,
      },
    ]);
    // An attempt whose answer stated nothing has no field at all.
    expect(trace.attempts[1]).not.toHaveProperty("headroom");
    expect(parseRunTraceLine(runTraceLine(trace), 1).attempts[0]!.headroom).toEqual(trace.attempts[0]!.headroom);

    // Bounded: an answer stating many windows keeps the tightest few; a rejected window comes first.
    const many: HeadroomReading[] = Array.from({ length: 9 }, (_, index) => ({
      window: `w${index}`,
      family: "codex",
      remainingShare: 0.9 - index / 10,
      resetAt: T0 + 1,
      readAt: T0,
    }));
    many.push({ window: "unified-7d", family: "anthropic-unified", status: "rejected", resetAt: T0 + 2, readAt: T0 });
    const kept = traceHeadroomReadings(many);
    expect(kept).toHaveLength(MAX_TRACE_HEADROOM_READINGS);
    expect(kept.map((reading) => reading.window)).toEqual(["unified-7d", "w8", "w7", "w6"]);
    expect(kept[0]).toEqual({
      window: "unified-7d",
      remainingShare: null,
      remaining: null,
      limit: null,
      status: "rejected",
      resetAt: T0 + 2,
    });
  });
});
