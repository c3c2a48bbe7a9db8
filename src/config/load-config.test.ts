import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../core/errors.js";
import { ConfigFileError } from "./config-error.js";
import { loadConfig } from "./load-config.js";

let root: string;
let cwd: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "detour-config-"));
  cwd = join(root, "project");
  home = join(root, "detour-home");
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(path: string, text: string): Promise<string> {
  await writeFile(path, text, "utf8");
  return path;
}

async function rejection(promise: Promise<unknown>): Promise<ConfigFileError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigFileError);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigFileError;
}

describe("loadConfig", () => {
  it("R-CF-1: no file anywhere means every default and no path", async () => {
    const loaded = await loadConfig({ cwd, env: { DETOUR_HOME: home } });
    expect(loaded.path).toBeUndefined();
    expect(loaded.warnings).toEqual([]);
    expect(loaded.config.gateway.port).toBe(4141);
    expect(loaded.config.state.backend).toBe("sqlite");
  });

  it("R-CF-1: ./detour.json5 wins over $DETOUR_HOME/detour.json5", async () => {
    const local = await write(join(cwd, "detour.json5"), "{ gateway: { port: 5001 } }");
    await write(join(home, "detour.json5"), "{ gateway: { port: 5002 } }");
    const loaded = await loadConfig({ cwd, env: { DETOUR_HOME: home } });
    expect(loaded.path).toBe(local);
    expect(loaded.config.gateway.port).toBe(5001);
  });

  it("R-CF-1: falls back to $DETOUR_HOME/detour.json5", async () => {
    const inHome = await write(join(home, "detour.json5"), "{ gateway: { port: 5002 } }");
    const loaded = await loadConfig({ cwd, env: { DETOUR_HOME: home } });
    expect(loaded.path).toBe(inHome);
    expect(loaded.config.gateway.port).toBe(5002);
  });

  it("R-CF-1: DETOUR_HOME defaults to ~/.detour", async () => {
    await mkdir(join(root, ".detour"));
    const inDefaultHome = await write(join(root, ".detour", "detour.json5"), "{ gateway: { port: 5003 } }");
    const loaded = await loadConfig({ cwd, env: { HOME: root } });
    expect(loaded.path).toBe(inDefaultHome);
    expect(loaded.config.gateway.port).toBe(5003);
  });

  it("R-CF-1: DETOUR_CONFIG overrides both looked-up locations, relative to cwd", async () => {
    await write(join(cwd, "detour.json5"), "{ gateway: { port: 5001 } }");
    const named = await write(join(cwd, "other.json5"), "{ gateway: { port: 5004 } }");
    const loaded = await loadConfig({ cwd, env: { DETOUR_HOME: home, DETOUR_CONFIG: "other.json5" } });
    expect(loaded.path).toBe(named);
    expect(loaded.config.gateway.port).toBe(5004);
  });

  it("R-CF-1: an explicit configPath wins over DETOUR_CONFIG", async () => {
    await write(join(cwd, "env.json5"), "{ gateway: { port: 5004 } }");
    const explicit = await write(join(root, "explicit.json5"), "{ gateway: { port: 5005 } }");
    const loaded = await loadConfig({ cwd, configPath: explicit, env: { DETOUR_CONFIG: "env.json5" } });
    expect(loaded.path).toBe(explicit);
    expect(loaded.config.gateway.port).toBe(5005);
  });

  it("R-CF-1: a file named explicitly must exist", async () => {
    const missing = join(cwd, "missing.json5");
    const fromFlag = await rejection(loadConfig({ cwd, configPath: missing, env: {} }));
    expect(fromFlag.problem).toBe("not_found");
    expect(fromFlag.message).toBe(
      `Config file not found: ${missing} (named by --config). Create it, or point --config at an existing file.`,
    );
    const fromEnv = await rejection(loadConfig({ cwd, env: { DETOUR_CONFIG: "missing.json5", DETOUR_HOME: home } }));
    expect(fromEnv.message).toContain("(named by DETOUR_CONFIG)");
  });

  it("R-CF-1: JSON5 syntax errors name the file, line and column", async () => {
    const file = await write(join(cwd, "detour.json5"), "{\n  gateway: {\n    port: 4141,,\n  },\n}\n");
    const error = await rejection(loadConfig({ cwd, env: { DETOUR_HOME: home } }));
    expect(error.problem).toBe("syntax");
    expect(error.line).toBe(3);
    expect(error.column).toBe(16);
    expect(error.message).toBe(
      `Config file ${file} is not valid JSON5: invalid character ',' at line 3, column 16. Fix the syntax and start again.`,
    );
    expect(error.issues).toEqual([{ path: `${file}:3:16`, message: error.message }]);
  });

  it("R-CF-1: a directory where the file should be is reported, not treated as missing", async () => {
    const directory = join(cwd, "detour.json5");
    await mkdir(directory);
    const error = await rejection(loadConfig({ cwd, env: { DETOUR_HOME: home } }));
    expect(error.problem).toBe("unreadable");
    expect(error.message).toBe(`Cannot read config file ${directory}: it is a directory. Check the path and its permissions.`);
  });

  it("R-CF-1: JSON5 features (comments, trailing commas, unquoted keys) and an empty file load", async () => {
    await write(join(cwd, "detour.json5"), "// comment\n{ agents: { defaults: { model: 'openai/gpt-4o', }, }, }\n");
    const loaded = await loadConfig({ cwd, env: { DETOUR_HOME: home } });
    expect(loaded.config.agents.defaults.model.primary).toBe("openai/gpt-4o");

    await write(join(cwd, "detour.json5"), "\uFEFF  \n");
    const empty = await loadConfig({ cwd, env: { DETOUR_HOME: home } });
    expect(empty.config.gateway.port).toBe(4141);
  });

  it("R-CF-2: an invalid file is rejected with every problem and the file as source", async () => {
    const file = await write(
      join(cwd, "detour.json5"),
      "{ gateway: { port: 'x' }, agents: { defaults: { model: { fallbacks: ['openai/b', 'no-such-model'] } } }, extra: 1 }",
    );
    const error = (await loadConfig({ cwd, env: { DETOUR_HOME: home } }).catch((caught: unknown) => caught)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.source).toBe(file);
    expect(error.issues.map((issue) => issue.path)).toEqual(["gateway.port", "agents.defaults.model.fallbacks[1]"]);
  });

  it("R-CF-2: warnings of a valid file come back with it", async () => {
    await write(join(cwd, "detour.json5"), "{ channels: {}, gateway: { bind: 'lan' } }");
    const loaded = await loadConfig({ cwd, env: { DETOUR_HOME: home } });
    expect(loaded.warnings).toHaveLength(2);
    expect(Object.isFrozen(loaded.config)).toBe(true);
  });
});
