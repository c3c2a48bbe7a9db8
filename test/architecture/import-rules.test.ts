/**
 * DESIGN §1 import rules, checked so they cannot rot: core imports only core; runner imports core and
 * ports; state and providers import ports and core; gateway and cli never reach into runner/state/providers
 * internals; core never reads the clock, randomness or timers.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const srcRoot = resolve(import.meta.dirname, "../../src");

function listSourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "__fixtures__" ? [] : listSourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

function topFolder(path: string): string {
  return relative(srcRoot, path).split(sep)[0] ?? "";
}

function importedSpecifiers(source: string): string[] {
  const pattern = /(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? "");
}

/** Which top-level folders of src/ each folder may import from (relative imports only). */
const ALLOWED: Record<string, string[]> = {
  core: ["core"],
  ports: ["core", "ports"],
  runner: ["core", "ports", "runner"],
  state: ["core", "ports", "state"],
  wire: ["core", "ports", "wire"],
  providers: ["core", "ports", "providers", "wire"],
  config: ["core", "config"],
  testing: ["core", "ports", "testing", "providers", "state", "config", "wire"],
};

const files = listSourceFiles(srcRoot);

describe("DESIGN §1 import rules", () => {
  it("finds source files to check", () => {
    expect(files.some((file) => topFolder(file) === "core")).toBe(true);
  });

  for (const file of files) {
    const folder = topFolder(file);
    const allowed = ALLOWED[folder];
    if (!allowed) continue;
    it(`${relative(srcRoot, file)} imports only ${allowed.join(", ")}`, () => {
      const source = readFileSync(file, "utf8");
      const offending = importedSpecifiers(source)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => topFolder(resolve(dirname(file), specifier)))
        .filter((target) => !allowed.includes(target));
      expect(offending).toEqual([]);
    });
  }

  it("core never reads the clock, randomness or timers", () => {
    const forbidden = /\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bsetTimeout\(|\bsetInterval\(|\bperformance\.now\(/;
    const offenders = files
      .filter((file) => topFolder(file) === "core")
      .filter((file) => forbidden.test(readFileSync(file, "utf8")))
      .map((file) => relative(srcRoot, file));
    expect(offenders).toEqual([]);
  });
});
