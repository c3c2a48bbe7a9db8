/** Spawns the child scripts of the state tests (TypeScript through tsx) and follows their output lines. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const childrenDirectory = fileURLToPath(new URL("../children/", import.meta.url));

export interface RunningChild {
  process: ChildProcess;
  lines: string[];
  /** Resolves with the first line satisfying `match` (rejects if the child exits first). */
  waitForLine(match: (line: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
  stderr(): string;
}

export function startChild(script: string, argument: unknown): RunningChild {
  const child = spawn(process.execPath, ["--import", "tsx", `${childrenDirectory}${script}`, JSON.stringify(argument)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let buffered = "";
  let errors = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    process: child,
    lines,
    exited,
    stderr: () => errors,
    waitForLine(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exited.then((code) => reject(new Error(`child ${script} exited (${code}) first:\n${errors}`)));
      });
    },
  };
}
