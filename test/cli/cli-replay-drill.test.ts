/**
 * R-OB-5 / R-OB-6 from outside, through the built binary: `detour replay` (table, --json, --html, bad input)
 * and `detour drill` (--list, --json, --max-failed-percent as a CI gate).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { runTraceLine } from "../../src/core/run-trace.js";
import { DRILL_START_MS, DRILLS, drillTarget, drillTraces, findDrill } from "../../src/engine/replay/index.js";
import { REPLAY_REPORT_KEYS } from "../fixtures/replay-report-keys.js";
import { sandboxPerFile } from "./helpers/sandbox-per-file.js";

const NO_FALLBACK = { agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6" } } }, state: { backend: "memory" } };
const WITH_FALLBACK = {
  agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-5"] } } },
  state: { backend: "memory" },
};

const sandbox = sandboxPerFile();

describe("detour replay and detour drill", () => {
  it("R-OB-6 drill --list --json names the built-in drills; a drill --json prints the per-config object and fails the CI gate", async () => {
    const listed = await sandbox.run(["drill", "--list", "--json"]);
    expect(listed.code).toBe(0);
    const names = (JSON.parse(listed.stdout) as { drills: { name: string }[] }).drills.map((drill) => drill.name);
    expect(names).toEqual(DRILLS.map((drill) => drill.name));

    const bare = sandbox.writeConfig(NO_FALLBACK, "bare.json5");
    const gated = await sandbox.run(["drill", "unreachable-host", "--config", bare, "--json", "--max-failed-percent", "1"], {
      timeoutMs: 60_000,
    });
    expect(gated.code).toBe(1);
    const outcome = JSON.parse(gated.stdout) as Record<string, unknown>;
    expect(Object.keys(outcome).slice(0, REPLAY_REPORT_KEYS.length)).toEqual(REPLAY_REPORT_KEYS);
    expect(outcome).toMatchObject({ name: "bare.json5", drill: "unreachable-host", verdict: "failed" });
    expect(outcome.advice).toEqual([expect.stringContaining("no fallback for anthropic/claude-sonnet-4-6")]);
    expect(gated.stderr).toContain("more than --max-failed-percent 1");

    const resilient = sandbox.writeConfig(WITH_FALLBACK, "resilient.json5");
    const passing = await sandbox.run(["drill", "unreachable-host", "--config", resilient, "--max-failed-percent", "1"], {
      timeoutMs: 60_000,
    });
    expect(passing.stderr).toBe("");
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("Verdict: held");

    const unknown = await sandbox.run(["drill", "meteor-strike"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("rate-limit-storm");
  }, 120_000);

  it("R-OB-5 replay prints the recording's config and each --config side by side, as a table, JSON and an HTML timeline", async () => {
    sandbox.writeConfig(NO_FALLBACK);
    const withFallback = sandbox.writeConfig(WITH_FALLBACK, "with-fallback.json5");
    const drill = findDrill("overloaded-provider")!;
    const traces = drillTraces(drill, drillTarget(parseConfig(NO_FALLBACK).config), DRILL_START_MS);
    const file = join(sandbox.cwd, "runs.jsonl");
    writeFileSync(file, traces.map(runTraceLine).join("\n") + "\n");

    const json = await sandbox.run(["replay", "runs.jsonl", "--config", withFallback, "--json"], { timeoutMs: 60_000 });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const { configs } = JSON.parse(json.stdout) as { configs: Record<string, number | string>[] };
    expect(configs.map((config) => Object.keys(config))).toEqual([REPLAY_REPORT_KEYS, REPLAY_REPORT_KEYS]);
    expect(configs.map((config) => config.name)).toEqual(["detour.json5", "with-fallback.json5"]);
    expect(configs[0]!.failed).toBe(traces.filter((trace) => trace.outcome === "failed").length);
    expect(configs[1]!.failed).toBe(0);

    const html = join(sandbox.cwd, "replay.html");
    const table = await sandbox.run(["replay", "runs.jsonl", "--config", withFallback, "--html", html], { timeoutMs: 60_000 });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/detour\.json5\s+with-fallback\.json5/);
    expect(table.stdout).toMatch(/^ ?failed\s+360\s+0\s*$/m);
    expect(existsSync(html)).toBe(true);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('<svg class="timeline"');
    expect(page).toContain("Runs that ended differently (360");
    expect(page).not.toMatch(/<script|https?:\/\//);

    const missing = await sandbox.run(["replay", "nowhere.jsonl"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("detour trace export");
    writeFileSync(join(sandbox.cwd, "v2.jsonl"), JSON.stringify({ ...traces[0], v: 2 }) + "\n");
    const future = await sandbox.run(["replay", "v2.jsonl"]);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('this Detour reads "v": 1');
  }, 120_000);
});
