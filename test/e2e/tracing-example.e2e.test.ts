/**
 * The documented tracing example runs as a user would run it (through the built package, by its npm name)
 * and shows one run span with an attempt span per call, the failed one carrying the cooldown it caused.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

describe("docs/operations.md tracing example", () => {
  it("prints a detour.run span, both attempt spans and the fallback through the OTel SDK's console exporter", () => {
    const result = spawnSync(process.execPath, [resolve(root, "examples/tracing.mjs")], { cwd: root, encoding: "utf8", timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("name: 'detour.run'");
    expect(result.stdout).toContain("name: 'chat openai/gpt-5'");
    expect(result.stdout).toContain("name: 'chat openai/gpt-5-mini'");
    expect(result.stdout).toContain("'detour.cooldown.applied_ms': 30000");
    expect(result.stdout).toContain("answered by openai/gpt-5-mini");
    expect(result.stdout).not.toContain("sk-demo");
  });
});
