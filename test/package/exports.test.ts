/**
 * The names the issues promise are a contract checked from outside, through the built package (dist/),
 * exactly as a user imports it. `npm install` builds dist/ via `prepare`.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const distEntry = resolve(root, "dist/index.js");

const CONTRACT = [
  // issue "Foundation and the pure failover core"
  "loadConfig", "classifyFailure", "buildCandidateChain", "resolveSelection", "orderProfiles",
  "recordFailure", "recordSuccess", "formatNotice", "FakeClock",
  "FailoverError", "FallbackSummaryError", "LiveSessionModelSwitchError", "ConfigError",
  // issue "The runner"
  "createDetour", "runWithModelFallback", "ScriptedProvider", "SeededRandom",
  // issue "Providers and the gateway"
  "startGateway", "createCappedFetch",
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

  it("ships an executable detour bin", () => {
    const bin = resolve(root, "dist/cli/main.js");
    expect(existsSync(bin)).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });
});
