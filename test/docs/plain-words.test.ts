/**
 * No specification ships with the package, so nothing a user reads may point into it: `--help`, messages,
 * metric help, the README and the docs that ship speak in plain words, never rule ids such as `(R-CH-2)` or
 * "SPEC §3". Code comments and test titles may cite rules; they are for the people who change the code.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { PassThrough } from "node:stream";
import type { Command } from "commander";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { CliDeps } from "../../src/cli/cli-deps.js";
import { createProgram } from "../../src/cli/program.js";

const root = resolve(import.meta.dirname, "../..");
const RULE_REFERENCE = /\bR-[A-Z]{2}-\d+|\bSPEC\b|§\s*\d/;

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(path) ? [path] : [];
  });
}

/** Test suites that live in src/ (store contracts, fixtures): their strings are test titles, not messages. */
const isTestCode = (path: string) => path.endsWith(".test.ts") || path.includes("__fixtures__");
const TEST_CALLS = new Set(["it", "describe", "test"]);

/** Every string and template text of a source file, outside test calls, with its line. */
function stringsOf(path: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && TEST_CALLS.has(node.expression.text)) return;
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function quietDeps(): CliDeps & { out: () => string } {
  let stdout = "";
  return {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: () => true },
    stdin: new PassThrough(),
    env: { NO_COLOR: "1" },
    cwd: root,
    waitForShutdown: () => new Promise(() => undefined),
    out: () => stdout,
  };
}

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.filter((sub) => sub.name() !== "help").flatMap(everyCommand)];
}

describe("plain words in what a user reads", () => {
  it("the check itself finds a rule id, a SPEC reference and a section sign", () => {
    for (const text of ["strict, no fallback (R-CH-2)", "see SPEC §3", "rules of §14"]) expect(text).toMatch(RULE_REFERENCE);
    for (const text of ["x-detour-agent", "R-rated", "CR-LF"]) expect(text).not.toMatch(RULE_REFERENCE);
  });

  it("no string in the shipped source names a rule of the specification (messages, --help, metric help, banner)", () => {
    const offenders = filesUnder(join(root, "src"), (path) => path.endsWith(".ts") && !isTestCode(path)).flatMap((path) =>
      stringsOf(path)
        .filter(({ text }) => RULE_REFERENCE.test(text))
        .map(({ line, text }) => `${relative(root, path)}:${line}: ${text.slice(0, 120)}`),
    );
    expect(offenders).toEqual([]);
  });

  it("no command's --help names a rule of the specification", async () => {
    const program = await createProgram(quietDeps(), ["--help"]);
    const commands = everyCommand(program);
    expect(commands.length).toBeGreaterThan(15);
    const offenders = commands
      .map((command) => ({ name: command.name(), help: command.helpInformation() }))
      .filter(({ help }) => RULE_REFERENCE.test(help))
      .map(({ name, help }) => `${name}: ${RULE_REFERENCE.exec(help)?.[0]}`);
    expect(offenders).toEqual([]);
  });

  it("the README and the shipped docs (architecture.md aside, which maps the code to the rules) cite no rule", () => {
    const shipped = [join(root, "README.md"), ...filesUnder(join(root, "docs"), (path) => !path.endsWith("architecture.md"))];
    const offenders = shipped.flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, index) => (RULE_REFERENCE.test(line) ? [`${relative(root, path)}:${index + 1}: ${line.slice(0, 120)}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
