/**
 * R-CL-2 from a checkout as a newcomer has it: after only `npm install` (which builds dist/ in `prepare`),
 * `npx detour demo` resolves the package's own `detour` bin and plays the storyline. In CI this runs in a
 * fresh clone, so it also proves that the install step alone is enough.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../cli/helpers/build.js";

let sandbox: string;

beforeAll(async () => {
  await ensureBuilt();
  sandbox = mkdtempSync(join(tmpdir(), "detour-npx-"));
}, 180_000);
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function npx(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // `--no`: never fetch a package from the registry; only the checkout's own bin may answer.
    const child = spawn("npm", ["exec", "--no", "--", "detour", ...args], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: join(sandbox, "home"),
        DETOUR_HOME: join(sandbox, "detour-home"),
        TMPDIR: sandbox,
        npm_config_cache: join(sandbox, "npm-cache"),
        npm_config_update_notifier: "false",
        NO_COLOR: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npx detour demo", () => {
  it("R-CL-2: `npx detour demo --fast --json` runs the storyline from the checkout's own bin", async () => {
    const result = await npx(["demo", "--fast", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const types = new Set(
      result.stdout
        .split("\n")
        .filter((line) => line.length > 0)
        .map((line) => (JSON.parse(line) as { type: string }).type),
    );
    for (const expected of ["rotation", "profile_failure", "notice", "summary"]) expect(types).toContain(expected);
  }, 60_000);
});
