/**
 * DESIGN §1 import rules, checked for every folder of src/ so they cannot rot: core imports only core;
 * runner imports core and ports; wire imports only core and the canonical model; state and providers import
 * ports, core and wire; pipe imports runner, ports, wire, providers (and the config and catalogue facts it
 * applies); config imports core and catalogue; catalogue imports nothing of ours; engine may
 * import anything below it; gateway imports engine, config, wire, catalogue and the public types (core,
 * ports); cli and demo import engine, gateway, config and the public types — never each other; core, runner,
 * state and wire never read the clock, randomness or timers but through the injected ports. The front ends
 * (gateway, cli, demo) reach the engine only through engine/index.ts. Every file of every sub-folder is checked under its top folder's row, and no folder depends
 * on itself through others, nor any file on itself at run time (an import cycle).
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

const IMPORT_PATTERN = /(?:import|export)\s([^'"]*?)from\s+["']([^"']+)["']|import\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

interface ImportEdge {
  specifier: string;
  /** Erased by the compiler: `import type`, `export type`, or only `type` names between the braces. */
  typeOnly: boolean;
  /** `import("…")`: loaded on first use, not when the importing file loads. */
  lazy: boolean;
}

function isTypeOnly(clause: string): boolean {
  const trimmed = clause.trim();
  if (/^type\s/.test(trimmed)) return true;
  const braces = /^\{([^}]*)\}$/.exec(trimmed);
  if (!braces) return false;
  const names = (braces[1] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

function importEdges(source: string): ImportEdge[] {
  return [...source.matchAll(IMPORT_PATTERN)].map((match) => ({
    specifier: match[2] ?? match[3] ?? match[4] ?? "",
    typeOnly: match[1] !== undefined && isTypeOnly(match[1]),
    lazy: match[4] !== undefined,
  }));
}

function importedSpecifiers(source: string): string[] {
  return importEdges(source).map((edge) => edge.specifier);
}

/**
 * What each top-level folder (or root file) of src/ may import (relative imports only). An entry is a folder,
 * or one file of it (`ports/canonical.ts`). Every folder of src/ needs a row: a new one cannot slip by.
 */
const PUBLIC_TYPES = ["core", "ports"];
const ENGINE_SURFACE = "engine/index.ts";
const BELOW_ENGINE = ["core", "ports", "runner", "pipe", "state", "providers", "wire", "config", "catalogue"];
const ALLOWED: Record<string, string[]> = {
  core: ["core"],
  catalogue: ["catalogue"],
  ports: ["core", "ports"],
  wire: ["wire", "core", "ports/canonical.ts"],
  runner: ["core", "ports", "runner"],
  state: ["core", "ports", "state", "wire"],
  providers: ["core", "ports", "providers", "wire"],
  config: ["core", "config", "catalogue"],
  // The one data plane moves bytes for the runner's decisions: it calls providers, reads and writes through wire
  // formats, and speaks to the runner through ports. It also reads the per-model settings it applies (config:
  // stall and first-token seconds, continuation limits, provider call settings) and the catalogue's facts about
  // a model (reasoning models wait longer for a first token; a continuation names the model's limits).
  pipe: ["pipe", "core", "ports", "runner", "wire", "providers", "config", "catalogue"],
  engine: ["engine", ...BELOW_ENGINE],
  // The front ends take the engine from its one surface (engine/index.ts): they render, never compose.
  gateway: ["gateway", ENGINE_SURFACE, "config", "wire", "catalogue", ...PUBLIC_TYPES],
  // terminal/ is the output both command-line front ends share, so they never import each other for it.
  terminal: ["terminal"],
  // testing/ ships the mock provider that `detour mock-provider` and `detour demo` serve (R-CL-3, R-CL-2).
  // The CLI refreshes and explains the model catalogue (`detour catalogue update | show`).
  // engine/replay/index.ts is the surface of what-if replay and the drills, loaded only by those commands.
  cli: ["cli", ENGINE_SURFACE, "engine/replay/index.ts", "gateway", "config", "catalogue", "terminal", "testing", ...PUBLIC_TYPES],
  demo: ["demo", ENGINE_SURFACE, "gateway", "config", "terminal", "testing", ...PUBLIC_TYPES],
  testing: ["core", "ports", "testing", "providers", "state", "config", "wire"],
  // ai-sdk/ is a front end over the engine: it reuses the pipe's stream relay, commit-point failures and the seam
  // of a continuation.
  "ai-sdk": ["ai-sdk", "engine", "pipe", "config", ...PUBLIC_TYPES, "runner/failure.ts", "wire/shared/sse-bytes.ts"],
  "index.ts": ["core", "ports", "runner", "pipe", "state", "providers", "wire", "config", "catalogue", "engine", "gateway", "testing"],
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

/** The project files `source` (written at `file`) may not import, by the row of `file`'s top folder. */
function offendingTargets(file: string, source: string): string[] {
  const allowed = ALLOWED[topFolder(file)] ?? [];
  return importedSpecifiers(source)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => targetOf(resolve(dirname(file), specifier)))
    .filter((target) => !permitted(file, allowed, target))
    .map((target) => target.file);
}

/** Every group of nodes that reach each other (Tarjan's strongly connected components), a self-loop included. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const files = listSourceFiles(srcRoot);
const sources = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));

/** Relative imports of every file, as paths under src/ (`gateway/app.ts`). */
function projectImports(file: string, keep: (edge: ImportEdge) => boolean): string[] {
  return importEdges(sources.get(file) ?? "")
    .filter((edge) => edge.specifier.startsWith(".") && keep(edge))
    .map((edge) => targetOf(resolve(dirname(file), edge.specifier)).file);
}

function srcName(file: string): string {
  return relative(srcRoot, file).split(sep).join("/");
}

describe("DESIGN §1 import rules", () => {
  it("finds source files to check", () => {
    expect(files.some((file) => topFolder(file) === "core")).toBe(true);
  });

  it("every folder and root file of src/ has a row", () => {
    const unlisted = [...new Set(files.map(topFolder))].filter((folder) => !(folder in ALLOWED));
    expect(unlisted).toEqual([]);
  });

  for (const file of files) {
    const allowed = ALLOWED[topFolder(file)] ?? [];
    it(`${relative(srcRoot, file)} imports only ${allowed.join(", ")}`, () => {
      expect(offendingTargets(file, sources.get(file) ?? "")).toEqual([]);
    });
  }

  it("checks the files of every sub-folder under their top folder's row, and would catch a front end reaching past engine/index.ts", () => {
    const nested = files.map(srcName).filter((name) => name.split("/").length > 2);
    expect(nested).toEqual(expect.arrayContaining(["gateway/routes/chat-route.ts", "cli/actions/gateway.ts"]));
    const route = join(srcRoot, "gateway/routes/some-route.ts");
    expect(offendingTargets(route, 'import { createLanes } from "../../engine/lanes.js";\nimport "../../state/open-store.js";')).toEqual([
      "engine/lanes.ts",
      "state/open-store.ts",
    ]);
    expect(offendingTargets(route, 'import { createDetour, type Detour } from "../../engine/index.js";')).toEqual([]);
    const action = join(srcRoot, "cli/actions/some-action.ts");
    expect(offendingTargets(action, 'const lazy = () => import("../../pipe/run-canonical.js");')).toEqual(["pipe/run-canonical.ts"]);
  });

  it("finds cycles, a self-loop included, and nothing in a graph without one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]);
    expect(findCycles(graph)).toEqual([["a", "b", "c"], ["d"]]);
    expect(
      findCycles(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
    expect(isTypeOnly("type { A }")).toBe(true);
    expect(isTypeOnly("{ type A, type B }")).toBe(true);
    expect(isTypeOnly("{ type A, B }")).toBe(false);
  });

  it("no folder of src/ depends on itself through other folders", () => {
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const folder = topFolder(file);
      const targets = projectImports(file, () => true)
        .map((target) => target.split("/")[0] ?? "")
        .filter((target) => target !== folder);
      graph.set(folder, [...new Set([...(graph.get(folder) ?? []), ...targets])]);
    }
    expect(findCycles(graph)).toEqual([]);
  });

  it("no file imports itself back at load time (an import cycle through eager, non-type imports)", () => {
    const graph = new Map(files.map((file) => [srcName(file), projectImports(file, (edge) => !edge.typeOnly && !edge.lazy)]));
    expect(findCycles(graph)).toEqual([]);
  });

  // The folders that make decisions or keep the state decisions read take time, randomness and timers from
  // the injected Clock and Random (ports/), so a FakeClock and a SeededRandom drive every one of them.
  const INJECTED_TIME_FOLDERS = ["core", "runner", "state", "wire"];
  const readsClockDirectly =
    /\bDate\.now\b|\bnew Date\(\)|\bMath\.random\b|\bsetTimeout\b|\bsetInterval\b|\bperformance\.now\b|node:timers/;

  for (const folder of INJECTED_TIME_FOLDERS) {
    it(`${folder} never reads the clock, randomness or timers but through the injected Clock and Random`, () => {
      const offenders = files
        .filter((file) => topFolder(file) === folder)
        .filter((file) => readsClockDirectly.test(readFileSync(file, "utf8")))
        .map((file) => relative(srcRoot, file));
      expect(offenders).toEqual([]);
    });
  }

  it("the clock rule catches a direct read", () => {
    for (const line of [
      "Date.now()",
      "options.now ?? Date.now",
      "Math.random()",
      "setTimeout(fire, 5)",
      'import { setTimeout } from "node:timers/promises"',
    ]) {
      expect(readsClockDirectly.test(line)).toBe(true);
    }
    expect(readsClockDirectly.test("clock.now()")).toBe(false);
  });
});
