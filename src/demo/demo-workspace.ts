/**
 * The demo's private home: a fresh directory under the OS temp dir that serves as DETOUR_HOME for the demo's
 * gateway (its SQLite store and secret key file land there). The user's home, their `~/.detour` and their
 * environment are never read or written, and the directory is removed when the demo ends — also after Ctrl+C.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface DemoWorkspace {
  readonly dir: string;
  /**
   * The only environment the demo's engine sees: DETOUR_HOME and nothing else, so a user's OPENAI_API_KEY,
   * DETOUR_SECRET_KEY or tuning knobs cannot leak into (or change) the storyline.
   */
  readonly env: Readonly<Record<string, string>>;
  remove(): Promise<void>;
}

export async function createDemoWorkspace(parent: string = tmpdir()): Promise<DemoWorkspace> {
  const dir = await mkdtemp(join(parent, "detour-demo-"));
  let removed = false;
  return {
    dir,
    env: { DETOUR_HOME: dir },
    async remove() {
      if (removed) return;
      removed = true;
      // maxRetries: SQLite's WAL files may still be closing on slow disks.
      await rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    },
  };
}
