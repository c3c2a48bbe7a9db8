/**
 * Maps whatever a command threw to the exit codes of R-CL-1 and to the one message the user sees.
 * Bad input is recognised by the stable error codes of Detour's typed errors, so the CLI needs no
 * knowledge of the layers that raised them.
 */
import { CommanderError } from "commander";
import { ConfigFileError } from "../config/index.js";
import { redactSecrets } from "../core/classify/preview.js";
import { configErrorMessage } from "../core/config-error-message.js";
import { DetourError, ERROR_CODES, ConfigError } from "../core/errors.js";
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_RUNTIME_FAILURE } from "./output.js";

/** Errors the user can fix by changing what they typed, a file they wrote, or an environment variable. */
export const BAD_INPUT_ERROR_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.cliBadInput,
  ERROR_CODES.config,
  ERROR_CODES.modelSelection,
  ERROR_CODES.invalidArgument,
  ERROR_CODES.mockScenarioInvalid,
  ERROR_CODES.stateConfig,
  ERROR_CODES.secretKeyInvalid,
  ERROR_CODES.gatewayUnsafeBind,
  ERROR_CODES.gatewayCannotBind,
]);

/** Commander's own outcomes that are not failures. */
const COMMANDER_SUCCESS_CODES: ReadonlySet<string> = new Set(["commander.helpDisplayed", "commander.version"]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A command already told the user what went wrong (a doctor report, a `--json` error object) and only
 * needs the exit code to follow.
 */
export class ReportedFailure extends DetourError {
  readonly code = ERROR_CODES.cliReportedFailure;
  readonly exitCode: number;

  constructor(exitCode: number = EXIT_RUNTIME_FAILURE) {
    super("reported");
    this.exitCode = exitCode;
  }
}

export function exitCodeForError(error: unknown): number {
  if (error instanceof ReportedFailure) return error.exitCode;
  if (error instanceof CommanderError) {
    // Unknown command or option, missing argument, a group command without its subcommand: all bad input.
    return COMMANDER_SUCCESS_CODES.has(error.code) ? EXIT_OK : EXIT_BAD_INPUT;
  }
  const code = errorCode(error);
  return code !== undefined && BAD_INPUT_ERROR_CODES.has(code) ? EXIT_BAD_INPUT : EXIT_RUNTIME_FAILURE;
}

/**
 * The text printed for a failure: the error's own message, which already says what to do next. A provider
 * may echo a key in its error text; anything credential-shaped is redacted before it reaches a terminal or
 * a log file (R-OB-2).
 */
export function describeError(error: unknown): string {
  // Config paths name secret-looking keys (`headers.Authorization: expected …`): only values are redacted.
  if (error instanceof ConfigError && !(error instanceof ConfigFileError))
    return configErrorMessage(error.issues, error.source, redactSecrets);
  const text = error instanceof Error ? error.message || error.name : String(error);
  return redactSecrets(text);
}
