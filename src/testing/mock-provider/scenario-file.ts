/**
 * Reads scenario files (JSON or JSON5) and resolves `--scenario <name|file>` arguments.
 */
import { readFile } from "node:fs/promises";
import JSON5 from "json5";
import type { z } from "zod";
import { ERROR_CODES, DetourError } from "../../core/errors.js";
import { BUILTIN_SCENARIOS, BUILTIN_SCENARIO_NAMES } from "./builtin-scenarios.js";
import { mockScenarioCollectionSchema, mockScenarioSchema, type MockScenario } from "./scenario-schema.js";

export class MockScenarioError extends DetourError {
  readonly code = ERROR_CODES.mockScenarioInvalid;
}

export interface MockScenarioSet {
  scenarios: Record<string, MockScenario>;
  /** The scenario to start with. */
  defaultScenario: string;
}

/** `rules[0].steps[1].afterTokens: …` — readable paths for scenario authors. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path
        .map((segment, index) => (typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`))
        .join("");
      return `${path || "(root)"}: ${issue.message}`;
    })
    .join("; ");
}

/** Parses scenario file text. A file holds either `{ scenarios: {...}, default? }` or one `{ rules: [...] }`. */
export function parseScenarioFile(text: string, source = "scenario file"): MockScenarioSet {
  let raw: unknown;
  try {
    raw = JSON5.parse(text);
  } catch (error) {
    throw new MockScenarioError(
      `${source} is not valid JSON5 (${error instanceof Error ? error.message : String(error)}). Fix the syntax and retry.`,
    );
  }
  const invalid = (issues: readonly z.core.$ZodIssue[]) =>
    new MockScenarioError(`${source} is not a valid mock-provider scenario: ${describeIssues(issues)}. See docs/mock-provider.md.`);
  // Pick the shape by its key rather than a zod union, so errors name the exact path.
  const isCollection = typeof raw === "object" && raw !== null && "scenarios" in raw;
  if (!isCollection) {
    const single = mockScenarioSchema.safeParse(raw);
    if (!single.success) throw invalid(single.error.issues);
    return { scenarios: { [source]: single.data }, defaultScenario: source };
  }
  const parsed = mockScenarioCollectionSchema.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error.issues);
  const names = Object.keys(parsed.data.scenarios);
  const defaultScenario = parsed.data.default ?? names[0];
  if (defaultScenario === undefined) {
    throw new MockScenarioError(`${source} defines no scenarios. Add at least one under "scenarios".`);
  }
  if (!(defaultScenario in parsed.data.scenarios)) {
    throw new MockScenarioError(`${source} names "${defaultScenario}" as default but defines only: ${names.join(", ")}. Fix "default".`);
  }
  return { scenarios: parsed.data.scenarios, defaultScenario };
}

export async function loadScenarioFile(path: string): Promise<MockScenarioSet> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new MockScenarioError(`Cannot read scenario file ${path} (${code}). Check the path.`, { cause: error });
  }
  return parseScenarioFile(text, path);
}

/** Resolves a scenario name against built-ins and any extra named scenarios. */
export function resolveScenarioName(name: string, extra: Readonly<Record<string, MockScenario>> = {}): MockScenario {
  const found = extra[name] ?? BUILTIN_SCENARIOS[name];
  if (!found) {
    const known = [...new Set([...Object.keys(extra), ...BUILTIN_SCENARIO_NAMES])].join(", ");
    throw new MockScenarioError(`Unknown mock-provider scenario "${name}". Known scenarios: ${known}.`);
  }
  return found;
}

/**
 * `--scenario <name|file>`: a built-in name, or a path to a scenario file (anything ending in .json/.json5
 * or containing a path separator).
 */
export async function resolveScenarioArgument(argument: string): Promise<MockScenarioSet> {
  const looksLikePath = /\.json5?$/i.test(argument) || argument.includes("/") || argument.includes("\\");
  if (looksLikePath) return loadScenarioFile(argument);
  return { scenarios: { [argument]: resolveScenarioName(argument) }, defaultScenario: argument };
}
