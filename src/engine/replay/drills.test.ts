import { describe, expect, it } from "vitest";
import { parseConfig, type DetourConfigInput } from "../../config/index.js";
import { parseRunTraceLine, runTraceLine } from "../../core/run-trace.js";
import { DRILL_START_MS, DRILLS, drillTarget, drillTraces, findDrill, runDrill } from "./index.js";

function config(input: DetourConfigInput) {
  return parseConfig({ state: { backend: "memory" }, ...input }, "drill test").config;
}

const ONE_KEY_NO_FALLBACK = config({ agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6" } } } });
const TWO_KEYS_AND_FALLBACK = config({
  agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-5"] } } },
  auth: {
    profiles: {
      "anthropic:one": { provider: "anthropic", mode: "api_key", keyRef: { env: "ANTHROPIC_ONE" } },
      "anthropic:two": { provider: "anthropic", mode: "api_key", keyRef: { env: "ANTHROPIC_TWO" } },
      "openai:one": { provider: "openai", mode: "api_key", keyRef: { env: "OPENAI_ONE" } },
    },
  },
});

describe("drills", () => {
  it("R-OB-6 at least six built-in incidents, among them the six the rule names, each written as v1 run traces", () => {
    expect(DRILLS.map((drill) => drill.name)).toEqual(
      expect.arrayContaining([
        "rate-limit-storm",
        "overloaded-provider",
        "silent-provider",
        "billing-cutoff",
        "cut-streams",
        "unreachable-host",
      ]),
    );
    const target = drillTarget(ONE_KEY_NO_FALLBACK);
    expect(target).toEqual({
      requestedModel: "anthropic/claude-sonnet-4-6",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      profileId: "anthropic:env",
    });
    for (const drill of DRILLS) {
      const traces = drillTraces(drill, target, DRILL_START_MS);
      expect(traces.length, drill.name).toBeGreaterThan(100);
      // A drill is a trace file like any other: it survives the JSON Lines round trip of `detour trace export`.
      traces.forEach((trace, index) => expect(parseRunTraceLine(runTraceLine(trace), index + 1)).toEqual(trace));
      expect(
        traces.some((trace) => trace.outcome === "failed"),
        drill.name,
      ).toBe(true);
      expect(
        traces.some((trace) => trace.outcome === "succeeded"),
        drill.name,
      ).toBe(true);
    }
  });

  it("R-OB-6 a config without a fallback fails the 429 storm, and the verdict names the change that helps with its numbers", async () => {
    const outcome = await runDrill(findDrill("rate-limit-storm")!, ONE_KEY_NO_FALLBACK, "detour.json5");
    expect(outcome.verdict).toBe("failed");
    expect(outcome.failedPercent).toBeGreaterThan(50);
    expect(outcome.report.upstream429).toBeGreaterThan(0);
    expect(outcome.advice.map((advice) => advice.text)).toEqual([
      expect.stringMatching(
        /^no fallback for anthropic\/claude-sonnet-4-6: \d+(\.\d)? % failed — add one on another provider, e\.g\. agents\.defaults\.model\.fallbacks: \["openai\/gpt-5"\] \(0 % failed with it in this drill\)$/,
      ),
      expect.stringMatching(/^one key for anthropic: /),
    ]);
    expect(outcome.advice[0]!.failedPercentWithChange).toBe(0);
    const again = await runDrill(findDrill("rate-limit-storm")!, ONE_KEY_NO_FALLBACK, "detour.json5");
    expect(again.report).toEqual(outcome.report);
  });

  it("R-OB-6 a config with a second key and a fallback on another provider holds every drill but the silent provider's waits", async () => {
    for (const drill of DRILLS) {
      const outcome = await runDrill(drill, TWO_KEYS_AND_FALLBACK, "resilient.json5");
      expect(outcome.failedPercent, drill.name).toBeLessThanOrEqual(1);
      if (drill.name !== "silent-provider") {
        expect(outcome.verdict, drill.name).toBe("held");
        expect(outcome.advice, drill.name).toEqual([]);
      }
    }
  }, 60_000);

  it("R-OB-6 the silent provider shows the wait of the timeout, and a shorter timeout is the change that helps", async () => {
    const outcome = await runDrill(findDrill("silent-provider")!, TWO_KEYS_AND_FALLBACK, "resilient.json5");
    expect(outcome.report.addedWaitMsP99).toBeGreaterThan(30_000);
    expect(outcome.verdict).toBe("degraded");
    expect(outcome.advice.map((advice) => advice.text)).toEqual([
      expect.stringContaining("set models.providers.anthropic.timeoutSeconds: 20"),
    ]);
    expect(outcome.advice[0]!.addedWaitMsP99WithChange).toBeLessThan(outcome.report.addedWaitMsP99);
  });
});
