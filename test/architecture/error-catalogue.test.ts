/**
 * The error codes live in one table (src/core/errors/codes.ts) and every coded error is a DetourError
 * (DESIGN §1), so a code cannot be spelled two ways and `DetourError.isInstance` knows every Detour error.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/errors.js";
import { ENVIRONMENT_KNOBS } from "../docs/environment-knobs.js";

const srcRoot = resolve(import.meta.dirname, "../../src");
const CATALOGUE = `core${sep}errors${sep}`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The code without its comments: a comment may name a code (`DETOUR_STORE_UNAVAILABLE`) to explain it. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** `DETOUR_…` string literals that are not environment variable names. */
export function codeLiterals(source: string): string[] {
  return [...withoutComments(source).matchAll(/["'`](DETOUR_[A-Z0-9_]+)["'`]/g)]
    .map((match) => match[1]!)
    .filter((name) => !ENVIRONMENT_KNOBS.has(name));
}

/** Classes that carry a `code` but extend plain `Error`, so `DetourError.isInstance` would not know them. */
export function plainCodedErrors(source: string): string[] {
  const found: string[] = [];
  for (const match of withoutComments(source).matchAll(/class (\w+) extends Error \{([\s\S]*?)\n\}/g)) {
    if (/^\s*(?:readonly\s+)?code\b/m.test(match[2]!)) found.push(match[1]!);
  }
  return found;
}

const files = sourceFiles(srcRoot).map((path) => ({ path: relative(srcRoot, path), source: readFileSync(path, "utf8") }));

describe("the error catalogue", () => {
  it("holds every code once, each prefixed DETOUR_", () => {
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^DETOUR_[A-Z0-9_]+$/);
  });

  it("is the only place that spells out an error code; everything else references ERROR_CODES", () => {
    const strays = files
      .filter((file) => !file.path.startsWith(CATALOGUE))
      .flatMap((file) => codeLiterals(file.source).map((code) => `${file.path}: ${code}`));
    expect(strays).toEqual([]);
  });

  it("has every coded error class extend DetourError", () => {
    const plain = files.flatMap((file) => plainCodedErrors(file.source).map((name) => `${file.path}: ${name}`));
    expect(plain).toEqual([]);
  });

  it("catches a bare code and a plain coded error, and lets comments and environment variables be", () => {
    expect(codeLiterals(`reply.code(404).send({ code: "DETOUR_NOT_FOUND" });`)).toEqual(["DETOUR_NOT_FOUND"]);
    expect(codeLiterals(`const c = 'DETOUR_BAD_REQUEST';`)).toEqual(["DETOUR_BAD_REQUEST"]);
    expect(codeLiterals(`/** Answers \`DETOUR_STORE_UNAVAILABLE\`. */\n// see "DETOUR_INTERNAL"\nenv["DETOUR_SECRET_KEY"];`)).toEqual([]);
    expect(plainCodedErrors(`export class PortError extends Error {\n  readonly code = ERROR_CODES.gatewayPortInUse;\n}`)).toEqual([
      "PortError",
    ]);
    expect(plainCodedErrors(`class DeadlineReached extends Error {}\nclass Other extends Error {\n  readonly at: number;\n}`)).toEqual([]);
  });
});
