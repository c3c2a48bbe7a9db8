/**
 * R-CL-1 in-process: every command of the tree answers --help with usage and examples, and usage errors map
 * to exit code 2. (test/cli/ runs the built binary for the behaviour of each command.)
 */
import { PassThrough } from "node:stream";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import type { CliDeps } from "./cli-deps.js";
import { commandNameOf, createProgram } from "./program.js";
import { runCli } from "./run-cli.js";

function fakeDeps(): CliDeps & { out: () => string; err: () => string } {
  let stdout = "";
  let stderr = "";
  return {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    stdin: new PassThrough(),
    env: { NO_COLOR: "1" },
    cwd: process.cwd(),
    waitForShutdown: () => new Promise(() => undefined),
    out: () => stdout,
    err: () => stderr,
  };
}

function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands
    .filter((sub) => sub.name() !== "help")
    .flatMap((sub) => [[...prefix, sub.name()], ...commandPaths(sub, [...prefix, sub.name()])]);
}

const program = await createProgram(fakeDeps(), []);
const paths = [[], ...commandPaths(program)];

/** The commands SPEC §15 names (R-CL-1). */
const SPEC_COMMANDS = [
  "gateway",
  "run",
  "status",
  "auth add",
  "auth list",
  "auth remove",
  "auth order set",
  "auth order show",
  "auth reset",
  "sessions list",
  "sessions show",
  "sessions reset",
  "sessions patch",
  "doctor",
  "config check",
  "config schema",
  "demo",
  "mock-provider",
];
/** Every one of them prints data, so offers --json, except `config schema`, which prints the JSON Schema itself. */
const PRINTS_DATA = SPEC_COMMANDS.filter((name) => name !== "config schema");

describe("the detour command tree", () => {
  it("R-CL-1: has every command of SPEC §15", () => {
    expect(paths.map((path) => path.join(" "))).toEqual(expect.arrayContaining(SPEC_COMMANDS));
  });

  it.each(paths.map((path) => [path.join(" ") || "(root)", path]))(
    "R-CL-1: `detour %s --help` shows usage and examples",
    async (_name, path) => {
      const deps = fakeDeps();
      expect(await runCli([...path, "--help"], deps)).toBe(0);
      expect(deps.out()).toMatch(/^Usage: detour/);
      const examples = deps.out().slice(deps.out().indexOf("Examples:"));
      expect(examples).toMatch(/^Examples:\n {2}(\$|#) /);
      expect(examples).toMatch(/^ {2}\$ .*\bdetour /m);
      expect(deps.err()).toBe("");
    },
  );

  it("R-CL-1: every command that prints data offers --json", async () => {
    for (const name of PRINTS_DATA) {
      const deps = fakeDeps();
      await runCli([...name.split(" "), "--help"], deps);
      expect(deps.out(), name).toContain("--json");
    }
  });

  it.each([
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["auth", "--frob"], /unknown option '--frob'/],
    [["sessions"], /Usage: detour sessions/],
    [["auth", "order"], /Usage: detour auth order/],
  ])("R-CL-1: usage error %j exits 2", async (argv, message) => {
    const deps = fakeDeps();
    expect(await runCli(argv, deps)).toBe(2);
    expect(deps.err()).toMatch(message);
  });

  it.each([
    [[], undefined],
    [["status", "--json"], "status"],
    [["--config", "x.json5", "auth", "list"], "auth"],
    [["--config", "run", "demo"], "demo"],
    [["--help"], undefined],
    [["help", "demo"], "help"],
  ])("R-CL-1: the command named by %j is %s", (argv, expected) => {
    expect(commandNameOf(argv)).toBe(expected);
  });
});
