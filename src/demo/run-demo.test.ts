import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DemoEvent, DemoSink } from "./demo-events.js";
import { runDemo } from "./run-demo.js";
import { HEDGING_SESSION, HEDGING_STEP } from "./storyline-hedging.js";
import { SEATS_STEP, SUB_AGENTS } from "./storyline-seats.js";

let parent: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), "detour-demo-test-"));
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

function collecting(onEvent: (event: DemoEvent) => void = () => undefined): DemoSink & { events: DemoEvent[] } {
  const events: DemoEvent[] = [];
  return {
    events,
    emit(event) {
      events.push(event);
      onEvent(event);
    },
  };
}

describe("runDemo", () => {
  it("R-CL-2: interrupted in the middle of the storyline, it still stops everything and removes its temp dir", async () => {
    const controller = new AbortController();
    // Ctrl+C right after the first answer, while the gateway and both mocks are running.
    const sink = collecting((event) => {
      if (event.type === "route") controller.abort();
    });
    await expect(runDemo({ fast: true, sink, signal: controller.signal, tempParent: parent })).rejects.toMatchObject({
      name: "AbortError",
    });
    const started = sink.events.find((event) => event.type === "demo_started");
    const cleanup = sink.events.at(-1);
    expect(cleanup).toEqual({ type: "cleanup", workspace: started?.type === "demo_started" ? started.workspace : "", removed: true });
    expect(readdirSync(parent)).toEqual([]);
    // The gateway is closed: nothing listens on its port any more.
    if (started?.type === "demo_started") await expect(fetch(`${started.gateway}/healthz`)).rejects.toThrow();
    expect(sink.events.some((event) => event.type === "summary")).toBe(false);
  });

  it("R-CL-2: a demo stopped before it started leaves no temp dir either", async () => {
    const controller = new AbortController();
    controller.abort();
    const sink = collecting();
    await expect(runDemo({ fast: true, sink, signal: controller.signal, tempParent: parent })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(sink.events).toHaveLength(1);
    const cleanup = sink.events[0];
    expect(cleanup).toMatchObject({ type: "cleanup", removed: true });
    expect(existsSync(cleanup?.type === "cleanup" ? cleanup.workspace : parent)).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("R-HG-1: the hedging step alone: the silent key is raced after seconds, the hedge answers, and the attempts count it", async () => {
    const sink = collecting();
    const summary = await runDemo({ fast: true, sink, tempParent: parent, storyline: [HEDGING_STEP] });
    const hedges = sink.events.filter((event) => event.type === "hedge");
    expect(hedges.map((event) => event.type === "hedge" && [event.profileId, event.outcome])).toEqual([
      ["openai:alpha", "started"],
      ["openai:alpha", "won"],
    ]);
    const request = sink.events.find((event) => event.type === "request");
    expect(request).toMatchObject({ session: HEDGING_SESSION });
    const route = sink.events.find((event) => event.type === "route");
    // Both keys are healthy here, so the hedge is the next key of the same model.
    expect(route).toMatchObject({ status: 200, profileId: "openai:beta", attemptCount: 2 });
    expect(
      route?.type === "route" && route.attempts.map((attempt) => [attempt.profileId, attempt.outcome, attempt.hedge ?? false]),
    ).toEqual([
      ["openai:beta", "succeeded", true],
      ["openai:alpha", "aborted", false],
    ]);
    expect(route?.type === "route" && route.elapsedMs).toBeLessThan(10_000);
    // The silent key was closed, not blamed.
    expect(sink.events.some((event) => event.type === "profile_failure")).toBe(false);
    expect(summary).toMatchObject({ requests: 1, answered: 1, hedgesWon: 1 });
  }, 20_000);

  it("R-PO-8: the seats step alone: sub-agents spread over the accounts, never more than 2 in flight on one, none refused, some waited", async () => {
    const sink = collecting();
    const summary = await runDemo({ fast: true, sink, tempParent: parent, storyline: [SEATS_STEP] });
    const seats = sink.events.find((event) => event.type === "seats");
    expect(seats).toMatchObject({ subAgents: SUB_AGENTS, answered: SUB_AGENTS, limit: 2 });
    if (seats?.type !== "seats") throw new Error("no seats event");
    for (const account of seats.accounts) {
      expect(account.maxInFlight).toBeLessThanOrEqual(2);
      expect(account.refused).toBe(0);
    }
    // 8 sub-agents, 6 seats: every account was full at once, and the rest waited in line.
    expect(seats.accounts.map((account) => account.maxInFlight)).toEqual([2, 2, 2]);
    expect(seats.accounts.reduce((sum, account) => sum + account.answered, 0)).toBe(SUB_AGENTS);
    expect(seats.waited).toBeGreaterThanOrEqual(1);
    const routes = sink.events.filter((event) => event.type === "route");
    expect(routes).toHaveLength(SUB_AGENTS);
    expect(routes.filter((event) => event.type === "route" && event.waitedForSeat)).toHaveLength(seats.waited);
    // Each sub-agent's route is its own run: one attempt, no failures.
    for (const route of routes) expect(route.type === "route" && route.attempts.map((attempt) => attempt.outcome)).toEqual(["succeeded"]);
    expect(summary).toMatchObject({
      requests: SUB_AGENTS,
      answered: SUB_AGENTS,
      subAgents: SUB_AGENTS,
      concurrency429s: 0,
      maxInFlightPerAccount: 2,
      accountsUsed: 3,
    });
  }, 20_000);
});
