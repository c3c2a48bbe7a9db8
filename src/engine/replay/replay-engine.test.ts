import { describe, expect, it } from "vitest";
import { parseConfig } from "../../config/index.js";
import { RECORD_START_MS, recordRuns, type World } from "./__fixtures__/record-runs.js";
import { replayTraces } from "./replay-engine.js";
import { summarizeRuns } from "./replay-report.js";

const STORM_FROM = RECORD_START_MS + 60_000;
const STORM_UNTIL = RECORD_START_MS + 8 * 60_000;

/** Anthropic's only key answers 429 (Retry-After 30 s) for seven minutes; OpenAI is healthy throughout. */
const storm: World = ({ provider, at }) => {
  if (provider === "anthropic" && at >= STORM_FROM && at < STORM_UNTIL)
    return { ok: false, latencyMs: 120, status: 429, reason: "rate_limit", retryAfterMs: 30_000 };
  return { ok: true, latencyMs: provider === "anthropic" ? 800 : 600 };
};

const ONE_KEY = {
  agents: {
    defaults: {
      model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: [] as string[] },
      modelFailover: { waitForCooldownMaxSeconds: 0, shortWaitSeconds: 0 },
    },
  },
  state: { backend: "memory" },
} as const;
const PROFILES = [
  { id: "anthropic:work", provider: "anthropic" },
  { id: "openai:work", provider: "openai" },
];

describe("what-if replay", () => {
  it("R-OB-5 replaying a trace with the config that recorded it reproduces the recorded counts exactly", async () => {
    const recorded = await recordRuns({ config: ONE_KEY, world: storm, runs: 90, everyMs: 7_000, profiles: PROFILES });
    expect(recorded.traces).toHaveLength(90);
    const before = summarizeRuns("recorded", recorded.traces);
    expect(before.failed).toBeGreaterThan(10);
    expect(before.upstream429).toBeGreaterThan(0);
    const replayed = await replayTraces({ name: "A", config: recorded.config, traces: recorded.traces });
    const { addedWaitMsP50: _p50, addedWaitMsP99: _p99, ...counts } = replayed.report;
    const { addedWaitMsP50: _r50, addedWaitMsP99: _r99, ...recordedCounts } = before;
    expect(counts).toEqual({ ...recordedCounts, name: "A" });
    const again = await replayTraces({ name: "A", config: recorded.config, traces: recorded.traces });
    expect(again.report).toEqual(replayed.report);
  });

  it("R-OB-5 a recording whose slow attempts were raced (R-HG-1) replays with the same hedges, and a config without hedging waits instead", async () => {
    const config = {
      agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: [] as string[] } } },
      state: { backend: "memory" },
    } as const;
    const recorded = await recordRuns({
      config,
      racing: true,
      runs: 20,
      everyMs: 30_000,
      profiles: [
        { id: "anthropic:a", provider: "anthropic" },
        { id: "anthropic:b", provider: "anthropic" },
      ],
      // anthropic:a goes silent for the middle runs: its answers would come after 60 s.
      world: ({ profileId, at }) =>
        profileId === "anthropic:a" && at >= RECORD_START_MS + 150_000 && at < RECORD_START_MS + 450_000
          ? { ok: true, latencyMs: 60_000 }
          : { ok: true, latencyMs: 700 },
    });
    const hedged = recorded.traces.filter((trace) => trace.attempts.some((attempt) => attempt.hedge));
    expect(hedged.length).toBeGreaterThan(0);
    const before = summarizeRuns("recorded", recorded.traces);
    const replayed = await replayTraces({ name: "A", config: recorded.config, traces: recorded.traces });
    const { addedWaitMsP50: _p50, addedWaitMsP99: _p99, ...counts } = replayed.report;
    const { addedWaitMsP50: _r50, addedWaitMsP99: _r99, ...recordedCounts } = before;
    expect(counts).toEqual({ ...recordedCounts, name: "A" });
    expect(replayed.traces.filter((trace) => trace.attempts.some((attempt) => attempt.hedge)).map((trace) => trace.runId)).toEqual(
      hedged.map((trace) => trace.runId),
    );
    const { config: noHedging } = parseConfig(
      { ...config, agents: { defaults: { ...config.agents.defaults, modelFailover: { hedging: { enabled: false } } } } },
      "B",
    );
    const waited = await replayTraces({ name: "B", config: noHedging, traces: recorded.traces });
    expect(waited.traces.some((trace) => trace.attempts.some((attempt) => attempt.hedge))).toBe(false);
    expect(waited.report.addedWaitMsP99).toBeGreaterThan(replayed.report.addedWaitMsP99);
  });

  it("R-OB-5 a config that adds a fallback answers the runs that failed in the recording", async () => {
    const recorded = await recordRuns({ config: ONE_KEY, world: storm, runs: 90, everyMs: 7_000, profiles: PROFILES });
    const failedBefore = recorded.traces.filter((trace) => trace.outcome === "failed").map((trace) => trace.runId);
    expect(failedBefore.length).toBeGreaterThan(10);
    const { config: withFallback } = parseConfig(
      {
        ...ONE_KEY,
        agents: {
          defaults: { ...ONE_KEY.agents.defaults, model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-5"] } },
        },
      },
      "B",
    );
    const replayed = await replayTraces({ name: "B", config: withFallback, traces: recorded.traces });
    expect(replayed.report.failed).toBe(0);
    expect(replayed.report.answered).toBe(90);
    expect(replayed.report.notices).toBeGreaterThan(0);
    const answeredNow = new Map(replayed.traces.map((trace) => [trace.runId, trace]));
    for (const runId of failedBefore) {
      expect(answeredNow.get(runId)?.outcome).toBe("succeeded");
      expect(answeredNow.get(runId)?.answeredBy?.provider).toBe("openai");
    }
  });

  it("R-OB-5 with jittered retries, waits for stated resets and cooldowns, sticky sessions and overlapping runs, the recording's own config still reproduces the recorded counts exactly", async () => {
    for (const everyMs of [300, 600, 900]) {
      const recorded = await recordRuns({
        config: {
          agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-5"] } } },
          state: { backend: "memory" },
        },
        profiles: [
          { id: "anthropic:a", provider: "anthropic" },
          { id: "anthropic:b", provider: "anthropic" },
          { id: "openai:a", provider: "openai" },
        ],
        runs: 300,
        everyMs,
        sessions: 7,
        world: ({ provider, profileId, at }) => {
          const second = Math.floor((at - RECORD_START_MS) / 1000);
          if (profileId === "anthropic:a" && second % 40 < 12)
            return { ok: false, latencyMs: 90, status: 429, reason: "rate_limit", retryAfterMs: 2_000 };
          if (provider === "anthropic" && second % 25 < 5) return { ok: false, latencyMs: 200, status: 500, reason: "server_error" };
          if (provider === "openai" && second % 60 < 8) return { ok: false, latencyMs: 300, status: 529, reason: "overloaded" };
          return { ok: true, latencyMs: 800 };
        },
      });
      const kinds = new Set(recorded.traces.flatMap((trace) => trace.waits.map((wait) => wait.kind)));
      expect([...kinds].sort()).toEqual(["cooldown_wait", "server_error_retry", "short_wait"]);
      expect(recorded.traces.some((trace) => trace.selectionSource === "auto_fallback_override")).toBe(true);
      const replayed = await replayTraces({ name: "recorded", config: recorded.config, traces: recorded.traces });
      expect(replayed.report).toEqual(summarizeRuns("recorded", recorded.traces));
    }
  });

  it("R-OB-5 a run whose client left is replayed as leaving at the same moment: neither answered nor failed", async () => {
    const recorded = await recordRuns({ config: ONE_KEY, world: storm, runs: 3, everyMs: 60_000, profiles: PROFILES });
    const [first, second, third] = recorded.traces;
    // The second run's client hung up 300 ms into its call.
    const left = {
      ...second!,
      outcome: "aborted" as const,
      durationMs: 300,
      answeredBy: null,
      attempts: [{ ...second!.attempts[0]!, outcome: "aborted" as const, status: null, reason: null, durationMs: 300 }],
    };
    const traces = [first!, left, third!];
    const replayed = await replayTraces({ name: "A", config: recorded.config, traces });
    expect(replayed.traces.map((trace) => trace.outcome)).toEqual(traces.map((trace) => trace.outcome));
    expect(replayed.traces[1]!.durationMs).toBe(300);
    const { addedWaitMsP50: _a, addedWaitMsP99: _b, ...counts } = replayed.report;
    const { addedWaitMsP50: _c, addedWaitMsP99: _d, ...expected } = summarizeRuns("A", traces);
    expect(counts).toEqual(expected);
    expect(counts.answered + counts.failed).toBe(2);
  });
});
