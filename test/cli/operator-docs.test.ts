/**
 * The operator-facing docs are checked against the code so they cannot drift (DESIGN §4): every metric the
 * gateway registers is in docs/operations.md with its labels, every error code the docs name exists, every
 * built-in mock scenario is in docs/mock-provider.md, and docs/architecture.md has one section per folder
 * of src/ (and none for a folder that is gone).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GatewayMetrics } from "../../src/gateway/metrics.js";
import { BUILTIN_SCENARIO_NAMES } from "../../src/testing/mock-provider/index.js";
import { repoRoot } from "./helpers/build.js";

const doc = (name: string) => readFileSync(join(repoRoot, "docs", name), "utf8");

function sourceText(dir: string): string {
  return readdirSync(dir)
    .map((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceText(path);
      return name.endsWith(".ts") && !name.endsWith(".test.ts") ? readFileSync(path, "utf8") : "";
    })
    .join("\n");
}

describe("docs/operations.md", () => {
  it("R-OB-3: lists every metric the gateway registers, with its labels", async () => {
    const operations = doc("operations.md");
    const metrics = await new GatewayMetrics().registry.getMetricsAsJSON();
    expect(metrics.length).toBeGreaterThan(5);
    for (const metric of metrics) {
      const row = operations.split("\n").find((line) => line.startsWith(`| \`${metric.name}\``));
      expect(row, metric.name).toBeDefined();
      const labels = new Set((metric.values[0]?.labels ? Object.keys(metric.values[0].labels) : []).filter((label) => label !== "le"));
      for (const label of labels) expect(row, `${metric.name} label ${label}`).toContain(label);
    }
  });

  it("names only error codes and environment variables that exist in the source", () => {
    const source = sourceText(join(repoRoot, "src"));
    const named = [...doc("operations.md").matchAll(/`(DETOUR_[A-Z_]+)`/g)].map((match) => match[1] ?? "");
    expect(named.length).toBeGreaterThan(0);
    for (const code of named) expect(source.includes(code), code).toBe(true);
  });
});

describe("docs/mock-provider.md", () => {
  it("R-CL-3: documents every built-in scenario", () => {
    const mockDoc = doc("mock-provider.md");
    for (const name of BUILTIN_SCENARIO_NAMES) expect(mockDoc, name).toContain(`| \`${name}\` |`);
  });
});

describe("docs/architecture.md", () => {
  it("has one section per folder of src/, and none for a folder that does not exist", () => {
    const folders = readdirSync(join(repoRoot, "src"))
      .filter((name) => statSync(join(repoRoot, "src", name)).isDirectory())
      .sort();
    const sections = [...doc("architecture.md").matchAll(/^## src\/([a-z-]+)\/$/gm)].map((match) => match[1] ?? "").sort();
    expect(sections).toEqual(folders);
  });
});
