/**
 * R-CL-1: help is instant. `detour --help` lists every command, the demo included, but opens no engine: the
 * engine, the gateway and the wire formats are loaded by the command that uses them, not by the help text.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt, repoRoot } from "./helpers/build.js";

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "detour-help-startup-"));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the built CLI under a module hook that writes down every module it loads. */
async function modulesLoadedBy(args: readonly string[]): Promise<string[]> {
  const list = join(dir, `loaded-${args.join("-")}.txt`);
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";\n` +
      `export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + "\\n"); return next(url, context); }\n`,
  );
  const register = join(dir, "register.mjs");
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(list, "");
  const result = await run(process.execPath, ["--import", pathToFileURL(register).href, cliPath, ...args], { cwd: dir });
  expect(result.stdout).toMatch(/^Usage: detour/);
  const dist = pathToFileURL(join(repoRoot, "dist")).href;
  return readFileSync(list, "utf8")
    .split("\n")
    .filter((url) => url.startsWith(dist))
    .map((url) => url.slice(dist.length + 1));
}

describe("detour --help start-up", () => {
  it("R-CL-1: `detour --help` loads no engine, gateway, wire format or store module", async () => {
    const loaded = await modulesLoadedBy(["--help"]);
    expect(loaded).toContain("cli/commands/demo.js");
    const heavy = loaded.filter((path) => /^(engine|gateway|pipe|wire|runner|state|providers)\//.test(path));
    expect(heavy).toEqual([]);
  });
});
