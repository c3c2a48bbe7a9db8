import { describe, expect, it } from "vitest";
import { newRunTrace, newTraceAttempt, type RunTraceV1, type TraceAttempt } from "../../core/run-trace.js";
import { DEFAULT_HEALTHY_LATENCY_MS, SAME_CALL_TOLERANCE_MS, UpstreamModel } from "./upstream-model.js";

const T0 = 1_767_225_600_000;

function attempt(fields: Partial<TraceAttempt>): TraceAttempt {
  return newTraceAttempt(
    { offsetMs: 0, provider: "anthropic", model: "claude", profileId: "anthropic:a" },
    { outcome: "succeeded", status: 200, durationMs: 700, ...fields },
  );
}

const REQUEST = { requestedModel: "anthropic/claude", dialect: null, stream: false, estimatedInputTokens: null };

function run(runId: string, startedAt: number, attempts: TraceAttempt[]): RunTraceV1 {
  const outcome = attempts.at(-1)?.outcome === "succeeded" ? "succeeded" : "failed";
  const start = {
    runId,
    agentId: "main",
    startedAt,
    sessionHash: null,
    request: REQUEST,
    chain: ["anthropic/claude"],
    selectionSource: "request_model",
  };
  return newRunTrace(start, { outcome, durationMs: 1_000, attempts });
}

const limited = (resetInMs: number, at: number) =>
  attempt({
    outcome: "failed",
    status: 429,
    reason: "rate_limit",
    durationMs: 100,
    statedResetAt: at + 100 + resetInMs,
    code: "rate_limit_exceeded",
  });

const call = (
  fields: Partial<{ runId: string; provider: string; model: string; profileId: string | null; ordinal: number; at: number }>,
) => ({
  runId: "other",
  provider: "anthropic",
  model: "claude",
  profileId: "anthropic:a",
  ordinal: 0,
  at: T0,
  ...fields,
});

describe("upstream rebuilt from a recording", () => {
  const traces = [
    run("r1", T0, [limited(60_000, T0)]),
    run("r2", T0 + 120_000, [attempt({ costUsd: 0.002, durationMs: 900 })]),
    run("r3", T0 + 130_000, [attempt({ durationMs: 500, costUsd: 0.004 })]),
    run("r4", T0 + 300_000, [
      attempt({
        provider: "openai",
        model: "gpt",
        profileId: "openai:a",
        outcome: "failed",
        status: 529,
        reason: "overloaded",
        durationMs: 300,
      }),
    ]),
  ];
  const model = new UpstreamModel(traces);

  it("R-OB-5 the very call the recording made gets the answer it got, and starts when it did", () => {
    expect(model.behaviour(call({ runId: "r1", at: T0 - 3 }), false)).toMatchObject({
      kind: "failure",
      status: 429,
      reason: "rate_limit",
      startDelayMs: 3,
      resetAt: T0 + 60_100,
      code: "rate_limit_exceeded",
    });
    // Far from when it was made, it is no longer that call: the profile's behaviour at that moment decides.
    expect(model.behaviour(call({ runId: "r1", at: T0 + SAME_CALL_TOLERANCE_MS + 200_000 }), false)).toMatchObject({ kind: "answer" });
  });

  it("R-OB-5 a profile that answered 429 until its stated reset answers 429 to a call before it, and answers after", () => {
    expect(model.behaviour(call({ at: T0 + 59_000 }), false)).toMatchObject({ kind: "failure", status: 429, resetAt: T0 + 60_100 });
    expect(model.behaviour(call({ at: T0 + 119_000 }), false)).toMatchObject({ kind: "answer", latencyMs: 900, costUsd: 0.002 });
  });

  it("R-OB-5 a key never called shares its provider's outage but not another key's 429; else a healthy answer at the model's median latency", () => {
    expect(model.behaviour(call({ profileId: "anthropic:b", at: T0 + 1_000 }), false)).toMatchObject({
      kind: "answer",
      latencyMs: 500,
      costUsd: 0.002,
    });
    expect(model.behaviour(call({ provider: "openai", model: "gpt", profileId: "openai:b", at: T0 + 301_000 }), false)).toMatchObject({
      kind: "failure",
      status: 529,
      reason: "overloaded",
    });
    const unknown = new UpstreamModel([], { costOf: (_provider, _model, usage) => usage.inputTokens * 1e-6 });
    expect(unknown.behaviour(call({ provider: "google", model: "gemini" }), true, { inputTokens: 1000, outputTokens: 10 })).toEqual({
      kind: "answer",
      startDelayMs: 0,
      latencyMs: DEFAULT_HEALTHY_LATENCY_MS,
      committed: true,
      streamMs: 0,
      costUsd: 0.001,
      inputTokens: 1000,
      outputTokens: 10,
      refused: false,
    });
  });

  it("R-OB-5 a call the client walked away from replays as a call that never answers", () => {
    const aborted = new UpstreamModel([run("r9", T0, [attempt({ outcome: "aborted", status: null, durationMs: 40 })])]);
    expect(aborted.behaviour(call({ runId: "r9" }), false)).toEqual({ kind: "hang" });
    // …and says nothing about the upstream to other calls.
    expect(aborted.behaviour(call({ runId: "x" }), false)).toMatchObject({ kind: "answer", latencyMs: DEFAULT_HEALTHY_LATENCY_MS });
  });
});
