/**
 * Everything the CLI prints goes through here: aligned tables, colour only on a TTY, `--json` output
 * (terminal/output.ts, shared with the demo), and the exit codes of R-CL-1 (0 ok, 1 runtime failure,
 * 2 bad input).
 */
import { DetourError, ERROR_CODES } from "../core/errors.js";
export { createOutput, formatRemaining, renderTable, type CliOutput, type OutputStream } from "../terminal/output.js";

export const EXIT_OK = 0;
export const EXIT_RUNTIME_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

/** A failure the user caused (bad flag, bad file): exit code 2 and a message naming the problem. */
export class CliUsageError extends DetourError {
  readonly code = ERROR_CODES.cliBadInput;
  readonly exitCode = EXIT_BAD_INPUT;
  constructor(message: string) {
    super(message);
  }
}
