import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { ConfigError, FallbackSummaryError, ModelSelectionError } from "../core/errors.js";
import { BAD_INPUT_ERROR_CODES, ReportedFailure, describeError, exitCodeForError } from "./cli-errors.js";
import { CliUsageError, EXIT_BAD_INPUT, EXIT_OK, EXIT_RUNTIME_FAILURE } from "./output.js";

class CodedError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

describe("exitCodeForError", () => {
  it.each([...BAD_INPUT_ERROR_CODES].map((code) => [code]))("R-CL-1: error code %s is bad input (exit 2)", (code) => {
    expect(exitCodeForError(new CodedError(code))).toBe(EXIT_BAD_INPUT);
  });

  it.each([
    ["a CliUsageError", new CliUsageError("bad flag"), EXIT_BAD_INPUT],
    ["an invalid config", new ConfigError([{ path: "gateway.port", message: "expected a number" }]), EXIT_BAD_INPUT],
    ["an unresolvable model", new ModelSelectionError({ input: "x", origin: "request model" }), EXIT_BAD_INPUT],
    ["commander's unknown option", new CommanderError(1, "commander.unknownOption", "unknown option"), EXIT_BAD_INPUT],
    ["a group command without subcommand", new CommanderError(1, "commander.help", "(outputHelp)"), EXIT_BAD_INPUT],
    ["--help", new CommanderError(0, "commander.helpDisplayed", "(outputHelp)"), EXIT_OK],
    ["--version", new CommanderError(0, "commander.version", "0.1.0"), EXIT_OK],
    ["every model failing", new FallbackSummaryError("All models failed (2)", { attempts: [] }), EXIT_RUNTIME_FAILURE],
    ["a plain Error", new Error("socket hang up"), EXIT_RUNTIME_FAILURE],
    ["a thrown string", "boom", EXIT_RUNTIME_FAILURE],
    ["an already reported bad input", new ReportedFailure(EXIT_BAD_INPUT), EXIT_BAD_INPUT],
  ])("R-CL-1: %s exits %i", (_name, error, code) => {
    expect(exitCodeForError(error)).toBe(code);
  });
});

describe("describeError", () => {
  it("R-OB-2: a key echoed in an error message is redacted before it is printed", () => {
    const text = describeError(
      new Error(
        "Incorrect API key provided: sk-proj-abcdef0123456789abcdef. Bearer eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0NTY3.SflKxwRJSMeKKF2QT4",
      ),
    );
    expect(text).not.toContain("abcdef0123456789");
    expect(text).not.toContain("SflKxwRJSMeKKF2QT4");
    expect(text).toContain("Incorrect API key provided");
  });
});
