/**
 * Issue 9: `detour gateway` bounds V8's young generation and old-generation growth from inside the process
 * (src/cli/gateway-heap.ts). The flags are real V8 behaviour, so it is checked in real processes: a child
 * that allocates like a gateway with and without the bound.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GATEWAY_SEMI_SPACE_MB, semiSpaceGrowthFactor, userTunesHeap } from "../../src/cli/gateway-heap.js";

const CHILD = fileURLToPath(new URL("./children/heap-child.ts", import.meta.url));

function youngGeneration(mode: "bounded" | "default"): { afterStart: number; afterLoad: number } {
  const child = spawnSync(process.execPath, ["--import", "tsx", CHILD, mode], { encoding: "utf8", timeout: 30_000 });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim()) as { afterStart: number; afterLoad: number };
}

describe("gateway heap bound", () => {
  it("a user's own heap flags win: on the command line or in NODE_OPTIONS, either spelling", () => {
    expect(userTunesHeap([], undefined)).toBe(false);
    expect(userTunesHeap(["--enable-source-maps"], "--max-old-space-size=512")).toBe(false);
    expect(userTunesHeap(["--max-semi-space-size=8"], undefined)).toBe(true);
    expect(userTunesHeap([], "--inspect --max_semi_space_size=2")).toBe(true);
    expect(userTunesHeap([], "--heap-growing-percent=50")).toBe(true);
    expect(userTunesHeap(["--semi-space-growth-factor", "2"], undefined)).toBe(true);
  });

  it("the young generation grows only while under its bound", () => {
    const bound = 2 * GATEWAY_SEMI_SPACE_MB * 1024 * 1024;
    expect(semiSpaceGrowthFactor(bound / 4, bound)).toBe(2);
    expect(semiSpaceGrowthFactor(bound, bound)).toBe(1);
    expect(semiSpaceGrowthFactor(bound * 2, bound)).toBe(1);
  });

  it("in a real process: no growth at start, growth under load stops near the bound; V8 alone grows to its maximum", () => {
    const unbounded = youngGeneration("default");
    const bounded = youngGeneration("bounded");
    const boundMb = 2 * GATEWAY_SEMI_SPACE_MB;
    // V8's default grows past the bound during a start-up whose objects survive (control: the child's
    // allocations are enough to show the difference).
    expect(unbounded.afterStart).toBeGreaterThan(boundMb);
    expect(bounded.afterStart).toBeLessThan(boundMb);
    // Growth happens in doubling steps, so the bound may be passed by one step, never to V8's maximum.
    expect(bounded.afterLoad).toBeGreaterThanOrEqual(boundMb);
    expect(bounded.afterLoad).toBeLessThanOrEqual(2 * boundMb);
    expect(unbounded.afterLoad).toBeGreaterThan(2 * boundMb);
  }, 40_000);
});
