import { describe, expect, it } from "vitest";
import { mockBudgetSchema, mockRuleSchema } from "../testing/mock-provider/index.js";
import { DEMO_SESSION } from "./demo-setup.js";
import { WATCHABLE_PACING } from "./pacing.js";
import { PRIMARY_PROBE_INTERVAL_MS, STORYLINE } from "./storyline.js";
import { ALPHA_NEARLY_SPENT, BUDGET_WINDOW_SECONDS, HEADROOM_SESSION } from "./storyline-headroom.js";
import { ALPHA_SILENT, HEDGING_SESSION } from "./storyline-hedging.js";
import { ANTHROPIC_THINKING, OPENAI_THINKING, SUB_AGENTS } from "./storyline-seats.js";
import { buildDemoConfig, DEMO_PROFILE_LIST, DEMO_SEATS_PER_ACCOUNT } from "./demo-setup.js";
import { parseConfig } from "../config/index.js";

const actions = STORYLINE.flatMap((step) => step.actions);

describe("the demo storyline", () => {
  it("R-CL-2: tells the parts in order: healthy, headroom, seats, rate limit, billing, outage, recovery, a rescued stream, hedging", () => {
    expect(STORYLINE.map((step) => step.id)).toEqual([
      "healthy",
      "headroom",
      "seats",
      "rate-limit",
      "billing",
      "outage",
      "recovery",
      "stream-rescue",
      "hedging",
    ]);
  });

  it("R-PO-7: the headroom step is self-contained: its own session, and its budget lifted only after the window has reset", () => {
    const step = STORYLINE.find((entry) => entry.id === "headroom");
    const kinds = step?.actions.map((action) => action.kind);
    expect(kinds?.[0]).toBe("set-budget");
    expect(kinds?.at(-1)).toBe("lift-budget");
    // A reading stops steering only when its reset passes: the skip must cover the whole window.
    const skip = step?.actions.find((action) => action.kind === "skip-time");
    expect(skip?.kind === "skip-time" ? skip.ms : 0).toBeGreaterThanOrEqual(BUDGET_WINDOW_SECONDS * 1000);
    // Its chats leave the main session's key pin alone, and no other step sends to its session.
    const chats = step?.actions.filter((action) => action.kind === "chat") ?? [];
    expect(chats.length).toBeGreaterThanOrEqual(2);
    for (const chat of chats) expect(chat.kind === "chat" && chat.session).toBe(HEADROOM_SESSION);
    const elsewhere = STORYLINE.filter((entry) => entry.id !== "headroom" && entry.id !== "hedging").flatMap((entry) => entry.actions);
    expect(elsewhere.some((action) => action.kind === "chat" && (action.session ?? DEMO_SESSION) !== DEMO_SESSION)).toBe(false);
    expect(elsewhere.some((action) => action.kind === "set-budget" || action.kind === "lift-budget")).toBe(false);
  });

  it("R-PO-7: the budget is a valid mock budget that leaves the key under 5 % after one more answer, yet not spent", () => {
    const budget = mockBudgetSchema.parse(ALPHA_NEARLY_SPENT.budget);
    const left = (budget.requests ?? 0) - (budget.usedRequests ?? 0) - 1;
    expect(left).toBeGreaterThan(0);
    expect(left / (budget.requests ?? 1)).toBeLessThan(0.05);
  });

  it("R-PO-8: the seats step fans out more sub-agents than all accounts have seats, while every key is healthy", () => {
    const config = parseConfig(buildDemoConfig({ openai: "http://127.0.0.1:1", anthropic: "http://127.0.0.1:2" }), "test").config;
    for (const profile of DEMO_PROFILE_LIST) expect(config.auth.profiles[profile.id]?.maxConcurrent).toBe(DEMO_SEATS_PER_ACCOUNT);
    const step = STORYLINE.find((entry) => entry.id === "seats");
    const fanOut = step?.actions.find((action) => action.kind === "fan-out");
    expect(fanOut?.kind === "fan-out" && fanOut.count).toBe(SUB_AGENTS);
    // More sub-agents than seats, so some must wait in line; the answers take long enough to overlap.
    expect(SUB_AGENTS).toBeGreaterThan(DEMO_PROFILE_LIST.length * DEMO_SEATS_PER_ACCOUNT);
    expect(step?.actions.filter((action) => action.kind === "inject").map((action) => action.kind === "inject" && action.fault)).toEqual([
      OPENAI_THINKING,
      ANTHROPIC_THINKING,
    ]);
    expect(step?.actions.slice(-2).map((action) => action.kind)).toEqual(["clear", "clear"]);
    // Before any key is rate-limited or out of credits: every account's seats are there to use.
    const ids = STORYLINE.map((entry) => entry.id);
    expect(ids.indexOf("seats")).toBeLessThan(ids.indexOf("rate-limit"));
  });

  it("R-HG-1: the hedging step silences the primary's first key in its own session, and clears the silence", () => {
    const step = STORYLINE.find((entry) => entry.id === "hedging");
    expect(step?.actions[0]).toEqual({ kind: "inject", fault: ALPHA_SILENT });
    expect(step?.actions.at(-1)).toMatchObject({ kind: "clear", fault: ALPHA_SILENT });
    expect(mockRuleSchema.parse(ALPHA_SILENT.rule).steps).toEqual([{ fault: "silence" }]);
    const chats = step?.actions.filter((action) => action.kind === "chat") ?? [];
    expect(chats).toHaveLength(1);
    for (const chat of chats) expect(chat.kind === "chat" && chat.session).toBe(HEDGING_SESSION);
    // The step comes after the billing failure: the hedge is the fallback model, not the second key.
    const ids = STORYLINE.map((entry) => entry.id);
    expect(ids.indexOf("hedging")).toBeGreaterThan(ids.indexOf("billing"));
  });

  it("R-ST-4: the rescued stream's step streams its turn against a cut on the primary's first key", () => {
    const rescue = STORYLINE.find((step) => step.id === "stream-rescue");
    expect(rescue?.actions.some((action) => action.kind === "chat" && action.stream === true)).toBe(true);
    expect(rescue?.actions.some((action) => action.kind === "inject" && action.fault.fault === "stream-cut")).toBe(true);
  });

  it("R-CL-2: the default, paced run stays well under 60 s of pauses", () => {
    const chats = actions.filter((action) => action.kind === "chat").length;
    const skips = actions.filter((action) => action.kind === "skip-time").length;
    const pausesMs =
      STORYLINE.length * WATCHABLE_PACING.afterStepMs + chats * WATCHABLE_PACING.afterRequestMs + skips * WATCHABLE_PACING.skipAnimationMs;
    expect(pausesMs).toBeLessThan(40_000);
  });

  it("R-SO-3: the recovery waits for a full probe interval on the demo clock, never a shortened one", () => {
    const recovery = STORYLINE.find((step) => step.id === "recovery");
    const skip = recovery?.actions.find((action) => action.kind === "skip-time");
    expect(skip).toMatchObject({ ms: PRIMARY_PROBE_INTERVAL_MS });
    expect(PRIMARY_PROBE_INTERVAL_MS).toBe(5 * 60 * 1000);
  });

  it("every injected fault is a valid mock-provider rule and is sticky until cleared", () => {
    for (const action of actions) {
      if (action.kind !== "inject") continue;
      expect(mockRuleSchema.safeParse(action.fault.rule).success).toBe(true);
      expect(action.fault.rule.then).toBe("repeat-last");
    }
  });

  it("R-CL-2: speaks to a newcomer: no SPEC rule ids in anything the storyline shows", () => {
    const shown = STORYLINE.flatMap((step) => [
      step.title,
      step.detail,
      ...step.actions.map((action) => {
        if (action.kind === "chat" || action.kind === "fan-out") return `${action.message} ${action.note}`;
        if (action.kind === "skip-time") return action.why;
        if (action.kind === "clear" || action.kind === "lift-budget") return action.description;
        if (action.kind === "set-budget") return action.budget.description;
        return action.fault.description;
      }),
    ]);
    expect(shown.filter((text) => /\bR-[A-Z]{2}-\d/.test(text))).toEqual([]);
  });
});
