/**
 * DESIGN §1 import rules, checked for every folder of src/ so they cannot rot: core imports only core;
 * runner imports core and ports; wire imports only core and the canonical model; state and providers import
 * ports, core and wire; config imports core and catalogue; catalogue imports nothing of ours; engine may
 * import anything below it; gateway imports engine, config, wire, catalogue and the public types (core,
 * ports); cli and demo import engine, gateway, config and the public types — never each other; core never
 * reads the clock, randomness or timers.
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

/**
 * What each top-level folder (or root file) of src/ may import (relative imports only). An entry is a folder,
 * or one file of it (`ports/canonical.ts`). Every folder of src/ needs a row: a new one cannot slip by.
 */
const PUBLIC_TYPES = ["core", "ports"];
const BELOW_ENGINE = ["core", "ports", "runner", "state", "providers", "wire", "config", "catalogue"];
const ALLOWED: Record<string, string[]> = {
  core: ["core"],
  catalogue: ["catalogue"],
  ports: ["core", "ports"],
  wire: ["wire", "core", "ports/canonical.ts"],
  runner: ["core", "ports", "runner"],
  state: ["core", "ports", "state", "wire"],
  providers: ["core", "ports", "providers", "wire"],
  config: ["core", "config", "catalogue"],
  engine: ["engine", ...BELOW_ENGINE],
  gateway: ["gateway", "engine", "config", "wire", "catalogue", ...PUBLIC_TYPES],
  // terminal/ is the output both command-line front ends share, so they never import each other for it.
  terminal: ["terminal"],
  // testing/ ships the mock provider that `detour mock-provider` and `detour demo` serve (R-CL-3, R-CL-2).
  // The CLI refreshes and explains the model catalogue (`detour catalogue update | show`).
  cli: ["cli", "engine", "gateway", "config", "catalogue", "terminal", "testing", ...PUBLIC_TYPES],
  demo: ["demo", "engine", "gateway", "config", "terminal", "testing", ...PUBLIC_TYPES],
  testing: ["core", "ports", "testing", "providers", "state", "config", "wire"],
  // ai-sdk/ is a front end over the engine: it reuses the runner's stream relay and the seam of a continuation.
  "ai-sdk": ["ai-sdk", "engine", "config", ...PUBLIC_TYPES, "runner/failure.ts", "wire/shared/sse-bytes.ts"],
  "index.ts": ["core", "ports", "runner", "state", "providers", "wire", "config", "catalogue", "engine", "gateway", "testing"],
};

/**
 * The one sanctioned edge between the front ends: `detour demo` is a command of the CLI (R-CL-2), so its
 * command module loads the demo. Nothing else of cli/ imports demo/, and demo/ never imports cli/.
 */
const EXCEPTIONS: readonly { file: string; target: string }[] = [{ file: "cli/commands/demo.ts", target: "demo" }];

function targetOf(path: string): { folder: string; file: string } {
  const relativePath = relative(srcRoot, path).split(sep).join("/").replace(/\.js$/, ".ts");
  return { folder: relativePath.split("/")[0] ?? "", file: relativePath };
}

function permitted(file: string, allowed: readonly string[], target: { folder: string; file: string }): boolean {
  if (allowed.includes(target.folder) || allowed.includes(target.file)) return true;
  const name = relative(srcRoot, file).split(sep).join("/");
  return EXCEPTIONS.some((exception) => exception.file === name && exception.target === target.folder);
}

const files = listSourceFiles(srcRoot);

describe("DESIGN §1 import rules", () => {
  it("finds source files to check", () => {
    expect(files.some((file) => topFolder(file) === "core")).toBe(true);
  });

  it("every folder and root file of src/ has a row", () => {
    const unlisted = [...new Set(files.map(topFolder))].filter((folder) => !(folder in ALLOWED));
    expect(unlisted).toEqual([]);
  });

  for (const file of files) {
    const folder = topFolder(file);
    const allowed = ALLOWED[folder] ?? [];
    it(`${relative(srcRoot, file)} imports only ${allowed.join(", ")}`, () => {
      const source = readFileSync(file, "utf8");
      const offending = importedSpecifiers(source)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => targetOf(resolve(dirname(file), specifier)))
        .filter((target) => !permitted(file, allowed, target))
        .map((target) => target.file);
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
