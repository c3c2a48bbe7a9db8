/**
 * Runs the CLI in this process (runCli with its outside world injected), for tests that start a gateway and
 * talk to it over loopback: stdout and stderr are captured, and stopping it is the shutdown a SIGTERM would ask.
 */
import { PassThrough } from "node:stream";
import type { CliDeps } from "../../../src/cli/cli-deps.js";
import { runCli } from "../../../src/cli/run-cli.js";

export interface InProcessCli {
  /** The exit code, once the command has finished. */
  exit: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Asks a long-running command to stop, as a SIGTERM would; `exit` settles when it has. */
  stop(): void;
}

export function runCliInProcess(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stderrIsTTY?: boolean },
): InProcessCli {
  let stdout = "";
  let stderr = "";
  let stop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const deps: CliDeps = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk), ...(options.stderrIsTTY !== undefined ? { isTTY: options.stderrIsTTY } : {}) },
    stdin: new PassThrough(),
    env: options.env,
    cwd: options.cwd,
    waitForShutdown: () => stopped,
  };
  return {
    exit: runCli(args, deps),
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => stop("SIGTERM"),
  };
}

const LISTENING = /listening on (\S+)/;

/**
 * Waits for a gateway started by runCliInProcess to print where it listens, and returns that URL. Fails when
 * the command exits first, or after 90 s (the first start imports the whole gateway stack, slow on a loaded machine).
 */
export async function gatewayListening(cli: InProcessCli): Promise<string> {
  const started = Date.now();
  while (!LISTENING.test(cli.stdout())) {
    const exited = await Promise.race([cli.exit, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
    if (exited !== undefined) throw new Error(`gateway exited ${exited}: ${cli.stderr()}`);
    if (Date.now() - started > 90_000) throw new Error("gateway did not start");
  }
  return LISTENING.exec(cli.stdout())![1]!;
}
