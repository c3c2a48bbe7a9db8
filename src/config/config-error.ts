/**
 * Turns validation and file problems into ConfigError (stable code DETOUR_CONFIG_INVALID, exit code 2
 * in the CLI). Messages never quote config values: a wrong value may be a secret in the wrong key.
 */
import type { z } from "zod";
import { ConfigError, type ConfigIssue } from "../core/errors.js";
import { formatConfigPath } from "./config-path.js";

type ZodIssue = z.core.$ZodIssue;

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object",
};

function bound(issue: { minimum?: unknown; maximum?: unknown; inclusive?: boolean }, below: boolean): string {
  const limit = String(below ? issue.minimum : issue.maximum);
  if (below) return issue.inclusive ? `at least ${limit}` : `greater than ${limit}`;
  return issue.inclusive ? `at most ${limit}` : `less than ${limit}`;
}

/**
 * zod's own wording, made shorter and uniform. Issues carry their input (parse runs with
 * reportInput) only so a missing key can be told apart from a wrong one; the input is never printed.
 */
function readableMessage(issue: ZodIssue): string {
  const missing = "input" in issue && issue.input === undefined;
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      if (missing) return `required: expected ${expected}`;
      const received = /received (\w+)/.exec(issue.message)?.[1];
      return received ? `expected ${expected}, received ${received}` : `expected ${expected}`;
    }
    case "invalid_value": {
      const options = issue.values.map((value) => JSON.stringify(value)).join(", ");
      return `${missing ? "required: " : ""}expected one of ${options}`;
    }
    case "too_small":
      if (issue.origin === "array") return `expected at least ${String(issue.minimum)} item(s)`;
      if (issue.origin === "string") return "expected a non-empty string";
      return `expected a number ${bound(issue, true)}`;
    case "too_big":
      if (issue.origin === "array") return `expected at most ${String(issue.maximum)} item(s)`;
      return `expected a number ${bound(issue, false)}`;
    default:
      return issue.message.replace(/^Invalid (input|option): /, "");
  }
}

function isRootTypeMismatch(branch: readonly ZodIssue[]): boolean {
  return branch.length === 1 && branch[0]?.code === "invalid_type" && branch[0].path.length === 0;
}

function unionTypes(issue: Extract<ZodIssue, { code: "invalid_union" }>): string[] | undefined {
  const types: string[] = [];
  for (const branch of issue.errors) {
    const only = branch.length === 1 ? branch[0] : undefined;
    if (!only || only.code !== "invalid_type" || only.path.length > 0) return undefined;
    types.push(TYPE_WORDS[only.expected] ?? only.expected);
  }
  return types;
}

function flattenIssue(issue: ZodIssue, prefix: readonly PropertyKey[]): ConfigIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // zod reports a failed union only when no branch matched the input's type, or several did.
    const types = unionTypes(issue);
    if (types) return [{ path: formatConfigPath(path), message: `expected ${[...new Set(types)].join(" or ")}` }];
    // Prefer the branch that matched the input's type and failed inside it, e.g. an object whose
    // `primary` is missing, over "expected a string".
    const matchedType = issue.errors.filter((branch) => !isRootTypeMismatch(branch));
    const candidates = matchedType.length > 0 ? matchedType : issue.errors;
    const closest = candidates.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return closest.flatMap((inner) => flattenIssue(inner, path));
  }
  return [{ path: formatConfigPath(path), message: readableMessage(issue) }];
}

/** Every zod issue as one `path: message` line; duplicates (same path and text) are dropped. */
export function configIssuesFromZod(issues: readonly ZodIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  const result: ConfigIssue[] = [];
  for (const issue of issues.flatMap((each) => flattenIssue(each, []))) {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(issue);
  }
  return result;
}

export type ConfigFileProblem = "not_found" | "unreadable" | "syntax";

/**
 * The config file itself could not be used (missing, unreadable, not JSON5). Same stable code as any
 * invalid config; the message names the file, and for syntax errors the line and column.
 */
export class ConfigFileError extends ConfigError {
  readonly problem: ConfigFileProblem;
  readonly line?: number;
  readonly column?: number;

  constructor(problem: ConfigFileProblem, file: string, message: string, position?: { line: number; column: number }) {
    const where = position ? `${file}:${position.line}:${position.column}` : file;
    super([{ path: where, message }], file);
    this.problem = problem;
    this.line = position?.line;
    this.column = position?.column;
    this.message = message;
  }
}

export function configFileNotFound(file: string, namedBy: string): ConfigFileError {
  return new ConfigFileError(
    "not_found",
    file,
    `Config file not found: ${file} (named by ${namedBy}). Create it, or point ${namedBy} at an existing file.`,
  );
}

export function configFileUnreadable(file: string, cause: unknown): ConfigFileError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (code ?? "read failed");
  return new ConfigFileError("unreadable", file, `Cannot read config file ${file}: ${reason}. Check the path and its permissions.`);
}

/** json5 throws SyntaxError with lineNumber/columnNumber and a message ending in "at L:C". */
export function configFileSyntaxError(file: string, cause: unknown): ConfigFileError {
  const details = cause as { message?: unknown; lineNumber?: unknown; columnNumber?: unknown };
  const line = typeof details.lineNumber === "number" ? details.lineNumber : undefined;
  const column = typeof details.columnNumber === "number" ? details.columnNumber : undefined;
  const what = String(details.message ?? "syntax error")
    .replace(/^JSON5:\s*/, "")
    .replace(/\s+at \d+:\d+$/, "");
  const position = line !== undefined && column !== undefined ? { line, column } : undefined;
  const where = position ? ` at line ${position.line}, column ${position.column}` : "";
  return new ConfigFileError(
    "syntax",
    file,
    `Config file ${file} is not valid JSON5: ${what}${where}. Fix the syntax and start again.`,
    position,
  );
}
