/**
 * R-CL-2 end to end: `detour demo` is spawned as a child process exactly as a user runs it (the built
 * binary, see test/cli/helpers), with HOME, DETOUR_HOME and TMPDIR inside a sandbox, and the storyline is
 * asserted from its `--json` NDJSON events.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/helpers/build.js";
import { createSandbox, type Sandbox } from "../cli/helpers/run-detour.js";
import { watchOutput } from "./helpers/watch-output.js";
import { DEMO_PROFILE_LIST, FALLBACK_MODEL, PRIMARY_MODEL } from "../../src/demo/demo-setup.js";
import type { DemoEvent } from "../../src/demo/demo-events.js";
import { DEMO_STORY } from "../../src/demo/storyline.js";

type EventOf<T extends DemoEvent["type"]> = Extract<DemoEvent, { type: T }>;

let sandbox: Sandbox;
let tempDir: string;

beforeAll(async () => {
  await ensureBuilt();
  sandbox = createSandbox();
  tempDir = join(sandbox.root, "tmp");
  mkdirSync(tempDir);
}, 180_000);
afterAll(() => sandbox.cleanup());

function parseNdjson(stdout: string): DemoEvent[] {
  const lines = stdout.split("\n").filter((line) => line.length > 0);
  // Every line is one JSON object: nothing else may share stdout with --json.
  return lines.map((line) => JSON.parse(line) as DemoEvent);
}

function ofType<T extends DemoEvent["type"]>(events: readonly DemoEvent[], type: T): EventOf<T>[] {
  return events.filter((event): event is EventOf<T> => event.type === type);
}

function routeOf(events: readonly DemoEvent[], request: number): EventOf<"route"> {
  const route = ofType(events, "route").find((event) => event.request === request);
  if (!route) throw new Error(`no route event for request #${request}`);
  return route;
}

/** What the user's home, DETOUR_HOME and the temp dir hold (the demo must leave all three as they were). */
function footprint() {
  return {
    home: readdirSync(sandbox.home),
    detourHomeExists: existsSync(sandbox.detourHome),
    temp: readdirSync(tempDir),
  };
}

describe("detour demo", () => {
  it("R-CL-2 R-PO-7: `detour demo --fast --json` shows a move before a limit, rotation, billing disable, fallback notice, cleared notice and a summary, and leaves nothing behind", async () => {
    const before = footprint();
    const result = await sandbox.run(["demo", "--fast", "--json"], { env: { TMPDIR: tempDir }, timeoutMs: 30_000 });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const events = parseNdjson(result.stdout);

    // (2) Headroom: a second session is moved off the nearly spent openai:alpha before its limit — the
    // engine's headroom_passed_over decision, before any 429 in the whole run, and none from its budget.
    const passedOver = ofType(events, "headroom_passed_over");
    expect(passedOver).toEqual([
      expect.objectContaining({
        profileId: "openai:alpha",
        toProfileId: "openai:beta",
        window: "requests",
        why: "below_min_remaining",
        pinMoved: true,
      }),
    ]);
    expect(passedOver[0]?.remainingShare).toBeGreaterThan(0);
    expect(passedOver[0]?.remainingShare).toBeLessThan(0.05);
    const movedRequest = passedOver[0]?.request ?? -1;
    expect(ofType(events, "request").find((event) => event.request === movedRequest)?.session).toBe("demo-second-chat");
    expect(routeOf(events, movedRequest)).toMatchObject({ status: 200, model: PRIMARY_MODEL, profileId: "openai:beta", attemptCount: 1 });
    const first429 = ofType(events, "route").find((route) => route.attempts.some((attempt) => attempt.status === 429));
    expect(first429?.request ?? Infinity).toBeGreaterThan(movedRequest);
    const budgets = ofType(events, "budget");
    expect(budgets.map((event) => [event.profileId, event.active])).toEqual([
      ["openai:alpha", true],
      ["openai:alpha", false],
    ]);
    expect(budgets[1]?.rejected).toBe(0);

    // (3) Sub-agents fan out over the accounts' seats: all answered, spread over every account, never more
    // than 2 in flight on one (counted by the mock, which would have refused a third with a 429), and the
    // sub-agents beyond the 6 seats waited in line.
    const seats = ofType(events, "seats");
    expect(seats).toHaveLength(1);
    expect(seats[0]).toMatchObject({ subAgents: 8, answered: 8, limit: 2 });
    expect(seats[0]?.accounts.map((account) => [account.profileId, account.maxInFlight, account.refused])).toEqual([
      ["openai:alpha", 2, 0],
      ["openai:beta", 2, 0],
      ["anthropic:main", 2, 0],
    ]);
    expect(seats[0]?.waited).toBeGreaterThanOrEqual(1);
    const subAgentRoutes = ofType(events, "route").filter((route) =>
      ofType(events, "request").some((request) => request.request === route.request && request.session.startsWith("demo-sub-agent-")),
    );
    expect(subAgentRoutes).toHaveLength(8);
    expect(subAgentRoutes.every((route) => route.status === 200 && route.attempts.every((attempt) => attempt.status !== 429))).toBe(true);

    // (4) A 429 on the first key rotates to the second key on the same model.
    const rotation = ofType(events, "rotation").find((event) => event.reason === "rate_limit");
    expect(rotation).toMatchObject({ from: "openai:alpha", to: "openai:beta", provider: "openai" });
    expect(routeOf(events, rotation?.request ?? -1)).toMatchObject({ status: 200, model: PRIMARY_MODEL, profileId: "openai:beta" });

    // (5) A 402 disables a profile.
    expect(ofType(events, "profile_failure")).toContainEqual(
      expect.objectContaining({ profileId: "openai:beta", reason: "billing", lane: "disabled" }),
    );

    // (6) The outage falls back to Anthropic with the notice, once; the next turn is sticky and silent.
    // The main session's notices; the hedging step's own session gets its own fallback notice (checked below).
    const mainRequests = new Set(
      ofType(events, "request")
        .filter((event) => event.session === "demo-chat")
        .map((event) => event.request),
    );
    const notices = ofType(events, "notice").filter((notice) => mainRequests.has(notice.request));
    const fallback = notices.filter((notice) => notice.kind === "fallback");
    expect(fallback).toHaveLength(1);
    expect(fallback[0]?.text).toMatch(/^↪️ Model Fallback: anthropic\/claude-sonnet-4-5 \(selected openai\/gpt-4o-mini; .+\)$/);
    const fallbackRequest = fallback[0]?.request ?? -1;
    expect(routeOf(events, fallbackRequest)).toMatchObject({ model: FALLBACK_MODEL, profileId: "anthropic:main" });
    expect(routeOf(events, fallbackRequest + 1)).toMatchObject({ model: FALLBACK_MODEL, notice: null, probedPrimary: false });

    // (7) The primary's re-probe succeeds: back on the primary with the cleared notice, once.
    const cleared = notices.filter((notice) => notice.kind === "cleared");
    expect(cleared).toEqual([expect.objectContaining({ text: `↪️ Model Fallback cleared: ${PRIMARY_MODEL} (was ${FALLBACK_MODEL})` })]);
    const clearedRequest = cleared[0]?.request ?? -1;
    expect(clearedRequest).toBeGreaterThan(fallbackRequest);
    expect(routeOf(events, clearedRequest)).toMatchObject({ model: PRIMARY_MODEL, probedPrimary: true });
    // R-SO-3 needs 5 minutes between probes: the demo clock skipped ahead rather than waiting.
    expect(ofType(events, "clock").some((event) => event.skippedMs >= 5 * 60_000)).toBe(true);

    // (8) A stream cut after its first words is finished by a continuation: one whole answer, no word twice.
    const rescued = ofType(events, "route").find((event) => event.continued === true);
    expect(rescued).toMatchObject({ status: 200, model: FALLBACK_MODEL, profileId: "anthropic:main", reply: DEMO_STORY });

    // (9) A provider that never sends a byte is raced: the hedge (the fallback model, openai:beta being out of
    // credits) answers in seconds, the silent attempt is closed without a failure on its record, and
    // x-detour-attempts counts the hedge.
    const hedges = ofType(events, "hedge");
    expect(hedges.map((event) => [event.profileId, event.outcome])).toEqual([
      ["openai:alpha", "started"],
      ["openai:alpha", "won"],
    ]);
    const hedged = routeOf(events, hedges[0]?.request ?? -1);
    expect(ofType(events, "request").find((event) => event.request === hedged.request)?.session).toBe("demo-hedged-chat");
    expect(hedged).toMatchObject({ status: 200, model: FALLBACK_MODEL, profileId: "anthropic:main", attemptCount: 2 });
    expect(hedged.attempts).toEqual([
      expect.objectContaining({ profileId: "anthropic:main", outcome: "succeeded", hedge: true }),
      expect.objectContaining({ profileId: "openai:alpha", outcome: "aborted", reason: null }),
    ]);
    expect(hedged.elapsedMs).toBeLessThan(10_000);
    expect(ofType(events, "profile_failure").some((event) => event.request === hedged.request)).toBe(false);

    // The summary counts what the events showed.
    const summaries = ofType(events, "summary");
    expect(summaries).toHaveLength(1);
    const summary = summaries[0];
    const requests = ofType(events, "request").length;
    const fallbackNotices = ofType(events, "notice").filter((notice) => notice.kind === "fallback").length;
    expect(summary).toMatchObject({
      requests,
      answered: requests,
      fallbacks: fallbackNotices,
      recoveries: 1,
      headroomMoves: 1,
      budgetRejections: 0,
      rescuedStreams: 1,
      hedgesWon: 1,
    });
    expect(summary).toMatchObject({ subAgents: 8, seatLimit: 2, maxInFlightPerAccount: 2, accountsUsed: 3, concurrency429s: 0 });
    expect(summary?.rotations).toBeGreaterThanOrEqual(1);
    expect(summary?.disables).toBeGreaterThanOrEqual(1);
    expect(summary?.profiles.find((profile) => profile.id === "openai:beta")).toMatchObject({ lane: "disabled", reason: "billing" });

    // Nothing left behind: the demo's own temp DETOUR_HOME is gone, the user's home and DETOUR_HOME untouched.
    const started = ofType(events, "demo_started")[0];
    expect(started?.workspace.startsWith(tempDir)).toBe(true);
    expect(events.at(-1)).toEqual({ type: "cleanup", workspace: started?.workspace, removed: true });
    expect(existsSync(started?.workspace ?? "")).toBe(false);
    expect(footprint()).toEqual(before);

    // The keys are fake, but still treated as secrets (R-OB-2): profile ids only.
    for (const profile of DEMO_PROFILE_LIST) expect(result.stdout).not.toContain(profile.key);
  });

  it("R-CL-2 R-PO-7: the live view (not a TTY) prints the routes, the move before a limit, both notices and the summary table without escape codes", async () => {
    const result = await sandbox.run(["demo", "--fast"], { env: { TMPDIR: tempDir }, timeoutMs: 30_000 });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toContain("\x1b[");
    expect(result.stdout).toContain("⟳ rotated openai:alpha → openai:beta");
    expect(result.stdout).toMatch(/#\d+ \(session demo-second-chat\) /);
    expect(result.stdout).toMatch(
      /↷ passed over openai:alpha: nearly spent \([\d.]+% of its requests window left, resets in (?:1m 0s|\d+s)\) → the session moves to openai:beta before this turn/,
    );
    expect(result.stdout).toContain(
      "Headroom: 1 turn moved off a nearly spent key before its limit, so no rate-limit budget ever had to answer 429.",
    );
    expect(result.stdout).toMatch(/disabled \d+h \d+m \(billing\)/);
    expect(result.stdout).toContain(`↪️ Model Fallback: ${FALLBACK_MODEL} (selected ${PRIMARY_MODEL};`);
    expect(result.stdout).toContain(`↪️ Model Fallback cleared: ${PRIMARY_MODEL} (was ${FALLBACK_MODEL})`);
    expect(result.stdout).toMatch(
      /Summary\n\s*requests\s+answered\s+rotations\s+fallbacks\s+disables\s+primary probes\s+recoveries\s+moved before a limit/,
    );
    expect(result.stdout).toMatch(/⇉ openai:alpha openai\/gpt-4o-mini sent nothing for \d+s → hedge started/);
    expect(result.stdout).toContain(
      "⇉ the hedge answered first; openai:alpha openai/gpt-4o-mini was closed without a failure on its record",
    );
    expect(result.stdout).toContain("· answered by the hedge");
    expect(result.stdout).toContain("8/8 sub-agents answered, spread over the accounts:");
    expect(result.stdout).toContain("· ⧗ waited in line for a seat");
    expect(result.stdout).toMatch(
      /Seats: 8 sub-agents spread over 3 accounts, never more than 2 in flight on one \(each has 2 seats\); \d+ waited in line for a seat, 0 concurrency 429s upstream\./,
    );
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("R-CL-2: Ctrl+C stops the demo at once, closes its servers and removes its temp dir", async () => {
    const child = sandbox.spawn(["demo", "--json"], { env: { TMPDIR: tempDir } });
    const output = watchOutput(child);
    const started = JSON.parse(await output.line(/"type":"demo_started"/)) as EventOf<"demo_started">;
    await output.line(/"type":"step"/);
    child.kill("SIGINT");
    const result = await output.exit();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("interrupted (SIGINT)");
    expect(result.stdout).toContain(`"type":"cleanup"`);
    expect(existsSync(started.workspace)).toBe(false);
    expect(readdirSync(tempDir)).toEqual([]);
    // Its gateway no longer answers.
    await expect(fetch(`${started.gateway}/healthz`)).rejects.toThrow();
  });

  it("R-CL-2: a closed output (`detour demo | head -1`) stops the demo cleanly instead of leaving its temp dir behind", async () => {
    const child = sandbox.spawn(["demo", "--json"], { env: { TMPDIR: tempDir } });
    const output = watchOutput(child);
    const started = JSON.parse(await output.line(/"type":"demo_started"/)) as EventOf<"demo_started">;
    child.stdout.destroy();
    const result = await output.exit();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("interrupted (its output was closed)");
    expect(existsSync(started.workspace)).toBe(false);
    expect(readdirSync(tempDir)).toEqual([]);
  });
});
