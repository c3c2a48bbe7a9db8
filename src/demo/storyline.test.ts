import { describe, expect, it } from "vitest";
import { mockRuleSchema } from "../testing/mock-provider/index.js";
import { WATCHABLE_PACING } from "./pacing.js";
import { PRIMARY_PROBE_INTERVAL_MS, STORYLINE } from "./storyline.js";

const actions = STORYLINE.flatMap((step) => step.actions);

describe("the demo storyline", () => {
  it("R-CL-2: tells the parts in order: healthy, rate limit, billing, outage, recovery, a rescued stream", () => {
    expect(STORYLINE.map((step) => step.id)).toEqual(["healthy", "rate-limit", "billing", "outage", "recovery", "stream-rescue"]);
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
        if (action.kind === "chat") return `${action.message} ${action.note}`;
        if (action.kind === "skip-time") return action.why;
        if (action.kind === "clear") return action.description;
        return action.fault.description;
      }),
    ]);
    expect(shown.filter((text) => /\bR-[A-Z]{2}-\d/.test(text))).toEqual([]);
  });
});
