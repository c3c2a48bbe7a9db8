/**
 * The names the issues promise are a contract checked from outside, through the built package (dist/),
 * exactly as a user imports it. `npm install` builds dist/ via `prepare`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const distEntry = resolve(root, "dist/index.js");

const CONTRACT = [
  // issue "Foundation and the pure failover core"
  "loadConfig",
  "classifyFailure",
  "buildCandidateChain",
  "resolveSelection",
  "orderProfiles",
  "recordFailure",
  "recordSuccess",
  "formatNotice",
  "FakeClock",
  "FailoverError",
  "FallbackSummaryError",
  "LiveSessionModelSwitchError",
  "ConfigError",
  // issue "The runner"
  "createDetour",
  "runWithModelFallback",
  "ScriptedProvider",
  "SeededRandom",
  // issue "Providers and the gateway"
  "startGateway",
  "createCappedFetch",
] as const;

describe("package root (dist/index.js)", () => {
  it("is built by npm install", () => {
    expect(existsSync(distEntry)).toBe(true);
  });

  it("exports every contract name", async () => {
    const api = (await import(pathToFileURL(distEntry).href)) as Record<string, unknown>;
    const missing = CONTRACT.filter((name) => api[name] === undefined);
    expect(missing).toEqual([]);
  });

  it("is published under a name of its own with the detour bin, ESM-only, on the Node versions its dependencies need", async () => {
    const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
      name: string;
      type: string;
      bin: Record<string, string>;
      engines: { node: string };
      exports: Record<string, unknown>;
    };
    // `detour` on npm is an unrelated package: `npm install detour` must not be what the README says.
    expect(manifest.name).toBe("detour-llm");
    expect(Object.keys(manifest.bin)).toEqual(["detour"]);
    expect(manifest.type).toBe("module");
    expect(JSON.stringify(manifest.exports["."])).not.toContain("require");
    // undici 7 needs 20.18.1; better-sqlite3 12 builds for 20.x and 22–26.
    expect(manifest.engines.node).toBe(">=20.18.1 <21 || >=22 <27");
    const readme = readFileSync(resolve(root, "README.md"), "utf8");
    // Not on npm yet: the README says how to install from a clone or a packed tarball instead.
    expect(readme).toContain(`${manifest.name}-`);
    expect(readme).toContain("ESM-only");
  });

  it("ships an executable detour bin", () => {
    const bin = resolve(root, "dist/cli/main.js");
    expect(existsSync(bin)).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });
});
