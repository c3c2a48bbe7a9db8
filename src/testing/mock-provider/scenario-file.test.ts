import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_SCENARIOS, BUILTIN_SCENARIO_NAMES } from "./builtin-scenarios.js";
import { RuleBook } from "./rule-book.js";
import { MockScenarioError, parseScenarioFile, resolveScenarioArgument, resolveScenarioName } from "./scenario-file.js";

describe("mock provider scenario files (R-CL-3)", () => {
  it("R-CL-3: parses a JSON5 file with named scenarios, comments and shorthand steps", () => {
    const set = parseScenarioFile(`{
      // two keys, the first one rate-limited twice
      scenarios: {
        rotation: { rules: [ { match: { key: "sk-a" }, steps: [{ fault: "rate-limit", times: 2 }] } ] },
        outage: { description: "anthropic down", rules: [ { match: { api: "anthropic" }, steps: ["overloaded"], then: "repeat-last" } ] },
      },
      default: "outage",
    }`);
    expect(set.defaultScenario).toBe("outage");
    expect(set.scenarios.rotation?.rules[0]?.steps).toEqual([{ fault: "rate-limit", times: 2 }]);
    expect(set.scenarios.outage?.rules[0]?.steps).toEqual([{ fault: "overloaded" }]);
  });

  it("R-CL-3: a file with one bare scenario is named after its source", () => {
    const set = parseScenarioFile(`{ rules: [{ steps: ["reset"] }] }`, "mine.json5");
    expect(set).toEqual({ defaultScenario: "mine.json5", scenarios: { "mine.json5": { rules: [{ steps: [{ fault: "reset" }] }] } } });
  });

  const invalid: [string, string, RegExp][] = [
    ["syntax", "{ rules: [", /not valid JSON5/],
    ["unknown fault", `{ rules: [{ steps: ["explode"] }] }`, /rules\[0\]\.steps\[0\]\.fault: Invalid discriminator/],
    ["missing parameter", `{ rules: [{ steps: [{ fault: "stream-cut" }] }] }`, /rules\[0\]\.steps\[0\]\.afterTokens/],
    ["typo in a field", `{ rules: [{ steps: ["ok"], thne: "ok" }] }`, /Unrecognized key/],
    ["unknown api", `{ rules: [{ match: { api: "cohere" }, steps: ["ok"] }] }`, /rules\[0\]\.match\.api/],
    ["empty steps", `{ rules: [{ steps: [] }] }`, /rules\[0\]\.steps/],
    ["bad default", `{ scenarios: { a: { rules: [] } }, default: "b" }`, /names "b" as default/],
  ];
  for (const [name, text, message] of invalid) {
    it(`R-CL-3: rejects a scenario file with ${name}, naming the problem`, () => {
      expect(() => parseScenarioFile(text)).toThrow(message);
      expect(() => parseScenarioFile(text)).toThrow(MockScenarioError);
    });
  }

  it("R-CL-3: --scenario accepts a built-in name or a file path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "detour-mock-"));
    try {
      const path = join(dir, "faults.json5");
      await writeFile(path, `{ scenarios: { slow: { rules: [{ steps: [{ fault: "slow-first-token", delayMs: 10 }] }] } } }`);
      const fromFile = await resolveScenarioArgument(path);
      expect(fromFile.defaultScenario).toBe("slow");
      const builtin = await resolveScenarioArgument("stall");
      expect(builtin.scenarios.stall).toEqual(BUILTIN_SCENARIOS.stall);
      await expect(resolveScenarioArgument(join(dir, "missing.json"))).rejects.toThrow(/Cannot read scenario file .*ENOENT/);
      await expect(resolveScenarioArgument("nope")).rejects.toThrow(/Unknown mock-provider scenario "nope"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("R-CL-3: every fault named in R-CL-3 has a built-in scenario", () => {
    for (const name of [
      "healthy",
      "rate-limited",
      "rate-limited-with-retry-after",
      "billing",
      "revoked-key",
      "overloaded",
      "server-error",
      "unavailable",
      "flaky",
      "slow-first-token",
      "stream-cut",
      "stall",
      "malformed-chunk",
      "missing-done",
      "context-overflow",
      "content-filter",
      "silence",
      "reset",
    ]) {
      expect(BUILTIN_SCENARIO_NAMES).toContain(name);
    }
    expect(resolveScenarioName("custom", { custom: { rules: [] } })).toEqual({ rules: [] });
  });
});

describe("mock provider rule book", () => {
  const identity = { model: "gpt-4o", api: "openai" as const, key: "sk-a" };

  it("R-CL-3: no rule matched → healthy", () => {
    expect(new RuleBook([{ match: { key: "other" }, steps: [{ fault: "reset" }] }]).next(identity)).toEqual({ step: { fault: "ok" } });
  });

  it("R-CL-3: model globs match whole ids", () => {
    const book = new RuleBook([{ match: { model: "gpt-4*" }, steps: [{ fault: "reset" }], then: "repeat-last" }]);
    expect(book.next(identity).step.fault).toBe("reset");
    expect(book.next({ ...identity, model: "xgpt-4o" }).step.fault).toBe("ok");
    expect(book.next({ ...identity, model: "gpt-4.1" }).step.fault).toBe("reset");
  });

  it("R-CL-3: times unrolls a step; rewind starts again; the rule name is reported", () => {
    const book = new RuleBook([{ name: "r1", steps: [{ fault: "silence", times: 2 }, { fault: "reset" }] }]);
    const faults = () => [1, 2, 3, 4].map(() => book.next(identity).step.fault);
    expect(faults()).toEqual(["silence", "silence", "reset", "ok"]);
    book.rewind();
    expect(book.next(identity)).toEqual({ step: { fault: "silence", times: 2 }, ruleIndex: 0, ruleName: "r1" });
  });
});
