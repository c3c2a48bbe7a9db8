/**
 * R-CL-1 surface: every command has --help with examples, exit codes 0/1/2, and config check|schema (R-CF-2).
 */
import { describe, expect, it } from "vitest";
import { sandboxPerFile } from "./helpers/sandbox-per-file.js";

const sandbox = sandboxPerFile();

describe("detour CLI basics", () => {
  // Every command's --help is checked in-process (src/cli/program.test.ts); here the built binary proves
  // that help reaches stdout with exit 0 for the root and for a nested command.
  it("R-CL-1: the built binary answers --help with usage and examples, exit 0", async () => {
    for (const args of [["--help"], ["auth", "add", "--help"]]) {
      const result = await sandbox.run(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stdout).toMatch(/^Usage: detour/);
      expect(result.stdout).toContain("Examples:\n");
      expect(result.stderr).toBe("");
    }
    const root = await sandbox.run(["--help"]);
    for (const command of ["gateway", "run", "status", "auth", "sessions", "doctor", "config", "demo", "mock-provider"]) {
      expect(root.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, "m"));
    }
  });

  it.each([
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["status", "--colour"], /unknown option '--colour'/],
    [["auth"], /Usage: detour auth/],
    [["sessions", "show"], /missing required argument 'sessionKey'/],
    [["run"], /missing required argument 'prompt'/],
    [["run", "hi", "--timeout-seconds", "soon"], /--timeout-seconds expects a positive number of seconds, got "soon"/],
    [["auth", "add", "openai", "--key", "k", "--type", "password"], /argument 'password' is invalid.*api_key, token, oauth/],
    [["config", "schema", "extra"], /too many arguments/],
  ])("R-CL-1: bad input %j exits 2 naming the problem", async (args, message) => {
    const result = await sandbox.run(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("R-CL-1: --version prints the version and exits 0", async () => {
    const result = await sandbox.run(["--version"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("R-CL-1: output without a TTY carries no colour codes", async () => {
    const result = await sandbox.run(["mock-provider", "--list"], { env: { NO_COLOR: "", TERM: "xterm-256color" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("rate-limited");
    expect(result.stdout).not.toContain("\u001b[");
  });
});

describe("detour config", () => {
  it("R-CF-2: config check accepts a valid file (text and --json)", async () => {
    const path = sandbox.writeConfig(
      { agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["anthropic/claude-sonnet-4-6"] } } } },
      "valid.json5",
    );
    const text = await sandbox.run(["--config", path, "config", "check"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Config OK: ${path}`);
    const json = await sandbox.run(["--config", path, "config", "check", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, path, warnings: [] });
  });

  it("R-CF-2: an invalid config exits 2 and lists every invalid path at once", async () => {
    const path = sandbox.writeConfig(
      {
        agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["ok/model", "no-slash", 7] } } },
        gateway: { port: "eighty" },
      },
      "invalid.json5",
    );
    const result = await sandbox.run(["--config", path, "config", "check"]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("agents.defaults.model.fallbacks[1]");
    expect(result.stderr).toContain("agents.defaults.model.fallbacks[2]");
    expect(result.stderr).toContain("gateway.port");
    const json = await sandbox.run(["--config", path, "config", "check", "--json"]);
    expect(json.code, json.stderr).toBe(2);
    const report = JSON.parse(json.stdout) as { ok: boolean; issues: { path: string }[] };
    expect(report.ok).toBe(false);
    expect(report.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["agents.defaults.model.fallbacks[1]", "agents.defaults.model.fallbacks[2]", "gateway.port"]),
    );
  });

  it("R-CF-2: a missing --config file exits 2 naming the file; unknown keys are warnings", async () => {
    const missing = await sandbox.run(["--config", "./nope.json5", "config", "check"]);
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toMatch(/Config file not found: .*nope\.json5/);
    const path = sandbox.writeConfig({ channels: { telegram: {} } }, "openclaw-like.json5");
    const warned = await sandbox.run(["--config", path, "config", "check"]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain("channels");
  });

  it("R-CF-2: an invalid config stops every command that loads it with exit 2", async () => {
    const path = sandbox.writeConfig({ state: { backend: "floppy" } }, "bad-state.json5");
    for (const args of [["status"], ["auth", "list"], ["sessions", "list"], ["run", "hi"]]) {
      const result = await sandbox.run(["--config", path, ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain("state.backend");
    }
  });

  it("R-CF-2: config schema prints the JSON Schema", async () => {
    const result = await sandbox.run(["config", "schema"]);
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout) as { $schema: string; properties: Record<string, unknown> };
    expect(schema.$schema).toContain("2020-12");
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["models", "auth", "agents", "cron", "gateway", "state"]));
  });

  it("R-CL-1: tables fit the terminal's width (COLUMNS): long cells wrap, nothing is cut", async () => {
    for (const args of [["mock-provider", "--list"], ["doctor"]]) {
      const result = await sandbox.run(args, { env: { COLUMNS: "80" } });
      const widest = Math.max(...result.stdout.split("\n").map((line) => line.length));
      expect(widest, `${args.join(" ")}:\n${result.stdout}`).toBeLessThanOrEqual(80);
    }
    const doctor = await sandbox.run(["doctor"], { env: { COLUMNS: "80" } });
    expect(doctor.stdout).toContain("gateway.allowedHosts");
  });
});
