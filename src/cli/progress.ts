/**
 * Progress for long work (R-CL-1), always on stderr so stdout stays clean for answers and `--json`. On a TTY
 * it is a spinner (@clack/prompts); elsewhere each step is one plain line, or nothing when `quietOffTty`
 * (a log file should not fill with "waiting…" lines for a single request).
 */
import type { Writable } from "node:stream";
import { spinner } from "@clack/prompts";
import type { OutputStream } from "./output.js";

export interface Progress {
  step(message: string): void;
  done(message?: string): void;
  fail(message?: string): void;
}

export function createProgress(stderr: OutputStream, options: { quietOffTty?: boolean; env?: NodeJS.ProcessEnv } = {}): Progress {
  const interactive = Boolean(stderr.isTTY) && options.env?.TERM !== "dumb" && !options.env?.CI;
  if (!interactive) {
    const write = (message: string | undefined) => {
      if (message && !options.quietOffTty) stderr.write(`${message}\n`);
    };
    return { step: write, done: write, fail: write };
  }
  // The spinner listens for SIGINT while it spins, which would swallow Ctrl+C; end the command the way
  // Node's default handler would have (128 + SIGINT).
  const spin = spinner({ output: stderr as Writable, withGuide: false, onCancel: () => process.exit(130) });
  let started = false;
  return {
    step(message) {
      if (started) spin.message(message);
      else spin.start(message);
      started = true;
    },
    // Without a closing message the spinner line is removed, so nothing is left behind on the terminal.
    done(message) {
      if (started && message) spin.stop(message);
      else if (started) spin.clear();
      else if (message) stderr.write(`${message}\n`);
      started = false;
    },
    fail(message) {
      if (started && message) spin.error(message);
      else if (started) spin.clear();
      else if (message) stderr.write(`${message}\n`);
      started = false;
    },
  };
}
