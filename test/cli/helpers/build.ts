/**
 * The CLI tests spawn the BUILT binary (`dist/cli/main.js`), exactly what `npx detour` runs. A clean clone
 * builds it in `npm install` (prepare); during development, a source file newer than the build triggers one
 * `npm run build` first. A lock directory keeps parallel test files from building at the same time.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(import.meta.dirname, "../../..");
export const cliPath = join(repoRoot, "dist/cli/main.js");
const lockDir = join(repoRoot, "node_modules/.cache/detour-cli-build.lock");
const STALE_LOCK_MS = 180_000;

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function buildIsFresh(): boolean {
  return existsSync(cliPath) && statSync(cliPath).mtimeMs >= newestSourceMtime(join(repoRoot, "src"));
}

function tryLock(): boolean {
  try {
    mkdirSync(join(repoRoot, "node_modules/.cache"), { recursive: true });
    mkdirSync(lockDir);
    return true;
  } catch {
    // A lock left by a killed run must not block every later run.
    if (existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > STALE_LOCK_MS) rmSync(lockDir, { recursive: true, force: true });
    return false;
  }
}

export async function ensureBuilt(): Promise<string> {
  for (;;) {
    if (buildIsFresh()) return cliPath;
    if (tryLock()) break;
    await new Promise((done) => setTimeout(done, 500));
  }
  try {
    if (!buildIsFresh()) {
      try {
        execFileSync("npm", ["run", "build"], { cwd: repoRoot, stdio: "pipe" });
      } catch (error) {
        // tsc still emits when another part of the tree has type errors; only a missing binary is fatal.
        if (!existsSync(cliPath)) throw error;
      }
    }
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
  return cliPath;
}
