/**
 * Follows a spawned command's output from its first byte, so a test can wait for several lines in turn
 * (none is missed because it arrived in the same chunk as an earlier one) and then for the exit.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";

export interface WatchedOutput {
  /** Resolves with the first stdout line matching `pattern` (already printed or still to come). */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exit(timeoutMs?: number): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function watchOutput(child: ChildProcessWithoutNullStreams): WatchedOutput {
  let stdout = "";
  let stderr = "";
  let exitCode: number | null | undefined;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    notify();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.on("close", (code) => {
    exitCode = code;
    notify();
  });

  function until<T>(check: () => T | undefined, describe: () => string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value !== undefined) {
          waiters.delete(attempt);
          clearTimeout(timer);
          resolve(value);
        } else if (exitCode !== undefined) {
          waiters.delete(attempt);
          clearTimeout(timer);
          reject(new Error(`exited (${exitCode}) before ${describe()}\nstdout: ${stdout}\nstderr: ${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(attempt);
        child.kill("SIGKILL");
        reject(new Error(`timed out waiting for ${describe()}\nstdout: ${stdout}\nstderr: ${stderr}`));
      }, timeoutMs);
      waiters.add(attempt);
      attempt();
    });
  }

  return {
    line: (pattern, timeoutMs = 15_000) =>
      until(
        () => stdout.split("\n").find((line) => pattern.test(line)),
        () => `a line matching ${pattern}`,
        timeoutMs,
      ),
    exit: (timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const finish = () => {
          if (exitCode === undefined) return;
          waiters.delete(finish);
          clearTimeout(timer);
          resolve({ code: exitCode, stdout, stderr });
        };
        const timer = setTimeout(() => {
          waiters.delete(finish);
          child.kill("SIGKILL");
          reject(new Error(`did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(finish);
        finish();
      }),
  };
}
