/**
 * What a CLI command may touch of the outside world, injected so commands stay testable and so no command
 * reaches for process globals on its own. `main.ts` builds the real one.
 */
import type { Readable } from "node:stream";
import type { OutputStream } from "./output.js";

export interface CliDeps {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Read only when a command asks for it (`--key -`). */
  stdin: Readable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Resolves with the signal name when the user asks a long-running command (gateway, mock-provider, demo)
   * to stop. Until then those commands keep serving.
   */
  waitForShutdown(): Promise<string>;
  /** Calls `listener` on every request to reload the config (SIGHUP) until the returned function is called. */
  onReloadSignal?(listener: () => void): () => void;
}

export function processCliDeps(): CliDeps {
  // Handlers are installed only by commands that wait for a signal: a short command such as `detour run`
  // keeps Node's default, so Ctrl+C still ends it at once.
  let shutdown: Promise<string> | undefined;
  const waitForShutdown = () =>
    (shutdown ??= new Promise<string>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve(signal));
    }));
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    waitForShutdown,
    onReloadSignal(listener) {
      process.on("SIGHUP", listener);
      return () => void process.off("SIGHUP", listener);
    },
  };
}
