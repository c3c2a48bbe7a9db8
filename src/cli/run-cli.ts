/** Parses argv, runs the command, and turns the outcome into an exit code (R-CL-1: 0 ok, 1 failure, 2 bad input). */
import { CommanderError } from "commander";
import type { CliDeps } from "./cli-deps.js";
import { ReportedFailure, describeError, exitCodeForError } from "./cli-errors.js";
import { EXIT_OK } from "./output.js";
import { createProgram } from "./program.js";

/** `argv` without the node binary and script path. */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  const program = await createProgram(deps, argv);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT_OK;
  } catch (error) {
    // Commander already printed its own message (and the help hint) through the configured output.
    // A ReportedFailure was explained by the command itself.
    if (!(error instanceof CommanderError) && !(error instanceof ReportedFailure)) deps.stderr.write(`detour: ${describeError(error)}\n`);
    return exitCodeForError(error);
  }
}
