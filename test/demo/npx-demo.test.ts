/**
 * R-CL-2 as a newcomer meets it: a fresh clone, `npm install`, then `npx detour demo`.
 *
 * The clone is a temp copy holding only what git would hand out (tracked files, plus new files that are not
 * ignored), so a demo that depends on anything ignored — `dist/`, a local `.detour/`, a stale build — fails
 * here. `npm install` is reproduced without the network: the checkout's node_modules are linked in and the
 * `prepare` script that `npm install` runs (the build) runs in the copy. Then `npx detour` must resolve the
 * copy's own bin (`--no`: never the registry) and play the whole storyline.
 */
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../cli/helpers/build.js";

const run = promisify(execFile);

let sandbox: string;
let clone: string;
let env: NodeJS.ProcessEnv;

/** What a clone of the working tree would contain: tracked files and new files that are not ignored. */
async function clonedFiles(): Promise<string[]> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.split("\0").filter((path) => path !== "");
}

function copyInto(target: string, files: readonly string[]): void {
  for (const file of files) {
    const source = join(repoRoot, file);
    // A file deleted from the working tree but still tracked is not part of the next clone either.
    try {
      if (!statSync(source).isFile()) continue;
    } catch {
      continue;
    }
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(source, join(target, file));
  }
}

beforeAll(async () => {
  sandbox = mkdtempSync(join(tmpdir(), "detour-clone-"));
  clone = join(sandbox, "detour");
  env = {
    PATH: process.env.PATH,
    HOME: join(sandbox, "home"),
    DETOUR_HOME: join(sandbox, "detour-home"),
    TMPDIR: sandbox,
    npm_config_cache: join(sandbox, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    NO_COLOR: "1",
  };
  copyInto(clone, await clonedFiles());
  symlinkSync(join(repoRoot, "node_modules"), join(clone, "node_modules"), "dir");
  await run("npm", ["run", "prepare"], { cwd: clone, env, maxBuffer: 16 * 1024 * 1024 });
}, 240_000);
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function npx(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["exec", "--no", "--", "detour", ...args], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npx detour demo from a fresh clone", () => {
  it("R-CL-2: after the install step alone, `npx detour demo --fast --json` plays the whole storyline", async () => {
    // The bin npm links must be executable after `prepare`, or `npx detour` fails on a real install.
    expect(statSync(join(clone, "dist/cli/main.js")).mode & 0o111).not.toBe(0);
    const result = await npx(["demo", "--fast", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { type: string; kind?: string; removed?: boolean; request?: number; session?: string });
    const types = new Set(events.map((event) => event.type));
    for (const expected of ["demo_started", "rotation", "profile_failure", "notice", "summary", "cleanup"])
      expect(types).toContain(expected);
    // The main session's notices: its outage falls back once and is cleared once. The seats and hedging steps
    // run in sessions of their own, with fallback notices of their own (test/demo/demo.test.ts checks them).
    const mainRequests = new Set(
      events.filter((event) => event.type === "request" && event.session === "demo-chat").map((event) => event.request),
    );
    const mainNotices = events.filter((event) => event.type === "notice" && mainRequests.has(event.request));
    expect(mainNotices.map((event) => event.kind)).toEqual(["fallback", "cleared"]);
    expect(events.at(-1)).toMatchObject({ type: "cleanup", removed: true });
  }, 60_000);
});
