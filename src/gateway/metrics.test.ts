import { describe, expect, it } from "vitest";
import type { DetourEvent } from "../ports/events.js";
import { parseConfig } from "../config/index.js";
import { GatewayMetrics, profileStateOf } from "./metrics.js";

const NOW = 1_000_000;

describe("GatewayMetrics", () => {
  it("R-PO-8 detour_profile_inflight and detour_queue_length show the seats in use and the line, read at every scrape", async () => {
    let sample = { inFlight: [{ agent: "main", profile: "anthropic:max", inFlight: 2 }], queueLength: 3 };
    const metrics = new GatewayMetrics({ seats: async () => sample });
    let text = await metrics.registry.metrics();
    expect(text).toContain('detour_profile_inflight{agent="main",profile="anthropic:max"} 2');
    expect(text).toContain("detour_queue_length 3");
    sample = { inFlight: [], queueLength: 0 };
    text = await metrics.registry.metrics();
    expect(text).not.toContain('profile="anthropic:max"');
    expect(text).toContain("detour_queue_length 0");
  });

  it("R-GW-8 detour_sessions counts the sessions each agent's store holds, read at every scrape", async () => {
    let counts = [
      { agent: "main", count: 3 },
      { agent: "coder", count: 1 },
    ];
    const metrics = new GatewayMetrics({
      sessionCounts: async () => counts,
      config: parseConfig({ agents: { list: [{ id: "coder" }] } }).config,
    });
    let text = await metrics.registry.metrics();
    expect(text).toContain('detour_sessions{agent="main"} 3');
    expect(text).toContain('detour_sessions{agent="coder"} 1');
    counts = [{ agent: "main", count: 2 }];
    text = await metrics.registry.metrics();
    expect(text).toContain('detour_sessions{agent="main"} 2');
    expect(text).not.toContain('agent="coder"');
  });

  it("R-OB-3: gateway overhead excludes the run's upstream attempts", async () => {
    const metrics = new GatewayMetrics();
    const attempt = (runId: string, durationMs: number): DetourEvent => ({
      type: "attempt_finished",
      runId,
      agentId: "main",
      provider: "openai",
      model: "m",
      profileId: "openai:a",
      outcome: "succeeded",
      reason: null,
      status: null,
      durationMs,
    });
    metrics.observeEvent(attempt("run-1", 400));
    metrics.observeEvent(attempt("run-1", 500));
    metrics.observeGatewayOverhead("openai-chat", 903, "run-1");
    const text = await metrics.render();
    expect(text).toMatch(/detour_gateway_overhead_seconds_sum\{endpoint="openai-chat"\} 0\.003/);
    expect(text).toMatch(/detour_upstream_latency_seconds_count\{provider="openai",model="m",outcome="succeeded"\} 2/);
    expect(text).toMatch(/detour_attempts_total\{provider="openai",model="m",reason="none"\} 2/);
  });

  it("R-OB-3: profile gauges are read from the store at scrape time", async () => {
    let samples = [{ provider: "openai", state: "cooldown" as const }];
    const metrics = new GatewayMetrics({ profileStates: async () => samples });
    expect(await metrics.render()).toMatch(/detour_profiles\{provider="openai",state="cooldown"\} 1/);
    samples = [];
    expect(await metrics.render()).not.toMatch(/detour_profiles\{/);
  });

  it("R-OB-3: two gateways in one process keep separate registries", async () => {
    const first = new GatewayMetrics();
    const second = new GatewayMetrics();
    first.observePostCommitFailure("openai", "m");
    expect(await first.render()).toMatch(/detour_stream_post_commit_failures_total\{provider="openai",model="m"\} 1/);
    expect(await second.render()).not.toMatch(/detour_stream_post_commit_failures_total\{/);
  });

  it.each([
    [undefined, "usable"],
    [{ cooldownUntil: NOW + 1 }, "cooldown"],
    [{ cooldownUntil: NOW - 1 }, "usable"],
    [{ blockedUntil: NOW + 1 }, "cooldown"],
    [{ disabledUntil: NOW + 1, cooldownUntil: NOW + 1 }, "disabled"],
  ])("R-OB-3: profile state of %j is %s", (stats, state) => {
    expect(profileStateOf(stats, NOW)).toBe(state);
  });
});
