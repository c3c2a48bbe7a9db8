import { describe, expect, it } from "vitest";
import type { DetourEvent } from "../../ports/events.js";
import { ActivityWindow } from "./activity-window.js";

const NOW = 1_700_000_000_000;

function runFinished(outcome: "succeeded" | "failed" | "content_filter", answered: boolean): DetourEvent {
  return {
    type: "run_finished",
    runId: `r-${outcome}`,
    agentId: "main",
    sessionId: null,
    outcome,
    provider: answered ? "anthropic" : null,
    model: answered ? "claude-b" : null,
    profileId: answered ? "anthropic:a" : null,
    failedCandidates: 0,
    durationMs: 120,
  } as DetourEvent;
}

describe("the dashboard's activity window", () => {
  it("R-GW-11 a refusal is counted as content_filter and as answered by its model, never as a run nobody answered", () => {
    const window = new ActivityWindow({ now: () => NOW, modelLabel: (model) => model });
    window.onEvent({
      type: "attempt_finished",
      runId: "r-content_filter",
      agentId: "main",
      provider: "anthropic",
      model: "claude-b",
      profileId: "anthropic:a",
      outcome: "failed",
      reason: "content_filter",
      status: 200,
      durationMs: 100,
    } as DetourEvent);
    window.onEvent(runFinished("content_filter", true));
    window.onEvent(runFinished("failed", false));
    const { totals } = window.snapshot();
    expect(totals.failures).toEqual({ content_filter: 1 });
    expect(totals.failed).toBe(1);
    expect(totals.requests).toBe(2);
  });
});
