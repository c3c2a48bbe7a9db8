/**
 * R-OB-4 through the library entry point: every run is recorded as a trace in the agent's own store, after
 * the answer, and the trace holds no key or answer text.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { createDetour } from "../../src/engine/create-detour.js";
import { sqliteStatePath } from "../../src/state/sqlite/sqlite-file.js";
import { SqliteTraceStore } from "../../src/state/sqlite/sqlite-trace-store.js";
import { httpError, ScriptedProvider, success } from "../../src/testing/scripted-provider.js";

const CONFIG = {
  agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } } },
  trace: { keepRuns: 3 },
};
const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("run traces recorded by createDetour", () => {
  it("R-OB-4 a run that fell back is traced in the agent's SQLite file, bounded by trace.keepRuns", async () => {
    const home = mkdtempSync(join(tmpdir(), "detour-traces-"));
    directories.push(home);
    const env = { DETOUR_HOME: home, DETOUR_SECRET_KEY: randomBytes(32).toString("base64") };
    const openai = new ScriptedProvider({ id: "openai" });
    const anthropic = new ScriptedProvider({ id: "anthropic" });
    openai.always({}, httpError(429, "Too many requests"));
    anthropic.always({}, success("the secret answer text"));
    const attempt = ScriptedProvider.route([openai, anthropic]);
    const readTraces = async () => {
      const traces = SqliteTraceStore.open({ path: sqliteStatePath(home, "main"), retention: { keepRuns: 3, keepHours: 24 } });
      try {
        return await traces.list({}, Date.now());
      } finally {
        await traces.close();
      }
    };

    const detour = await createDetour({ config: CONFIG, env });
    const store = await detour.store();
    await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-secret-openai" } });
    await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-secret-anthropic" } });
    const first = await detour.runWith({ sessionKey: "user-1", attempt });
    await detour.runWith({ attempt });
    await detour.runWith({ attempt });
    await detour.close();

    const listed = await readTraces();
    expect(listed.map((trace) => trace.runId)[0]).toBe(first.runId);
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatchObject({
      v: 1,
      agentId: "main",
      outcome: "succeeded",
      chain: ["openai/gpt-5", "anthropic/claude-sonnet-4-6"],
      answeredBy: { provider: "anthropic", model: "claude-sonnet-4-6", profileId: "anthropic:a" },
    });
    expect(listed[0]!.sessionHash).toMatch(/^[0-9a-f]{32}$/);
    expect(listed[0]!.attempts.map((a) => [a.provider, a.outcome, a.status, a.reason])).toEqual([
      ["openai", "failed", 429, "rate_limit"],
      ["anthropic", "succeeded", null, null],
    ]);
    // Later runs pass over the cooling-down primary without calling it.
    expect(listed[2]!.skips).toEqual([expect.objectContaining({ model: "openai/gpt-5", reason: "rate_limit" })]);
    expect(listed[2]!.attempts.map((a) => a.provider)).toEqual(["anthropic"]);
    const text = JSON.stringify(listed);
    expect(text).not.toContain("sk-secret");
    expect(text).not.toContain("secret answer");
    expect(text).not.toContain("Too many requests");
    expect(text).not.toContain("user-1");

    // A fourth run pushes the oldest out of the ring.
    const again = await createDetour({ config: CONFIG, env });
    await again.runWith({ attempt });
    await again.close();
    const after = await readTraces();
    expect(after).toHaveLength(3);
    expect(after.map((trace) => trace.runId)).not.toContain(first.runId);
  });
});

describe("detour trace export", () => {
  it("R-OB-4 prints the kept runs as JSON Lines, one run per line with v 1, filtered by --session and --since", async () => {
    const home = mkdtempSync(join(tmpdir(), "detour-trace-export-"));
    directories.push(home);
    const env = { DETOUR_HOME: home, DETOUR_SECRET_KEY: randomBytes(32).toString("base64"), NO_COLOR: "1" };
    writeFileSync(join(home, "detour.json5"), JSON.stringify(CONFIG));
    const openai = new ScriptedProvider({ id: "openai" });
    openai.always({}, success("hello"));
    const attempt = ScriptedProvider.route([openai]);
    const detour = await createDetour({ config: CONFIG, env });
    await (await detour.store()).upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-x" } });
    const inSession = await detour.runWith({ sessionKey: "chat-42", attempt });
    const other = await detour.runWith({ sessionKey: "chat-7", attempt });
    await detour.close();

    const exportWith = async (...flags: string[]) => {
      let stdout = "";
      let stderr = "";
      const code = await runCli(["trace", "export", ...flags], {
        stdout: { write: (chunk: string) => (stdout += chunk) },
        stderr: { write: (chunk: string) => (stderr += chunk) },
        stdin: new PassThrough(),
        env,
        cwd: home,
        waitForShutdown: () => new Promise(() => undefined),
      });
      return {
        code,
        lines: stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
        stderr,
      };
    };
    const all = await exportWith();
    expect(all.code).toBe(0);
    expect(all.lines.map((line) => [line.v, line.runId])).toEqual([
      [1, inSession.runId],
      [1, other.runId],
    ]);
    expect((await exportWith("--session", "chat-42")).lines.map((line) => line.runId)).toEqual([inSession.runId]);
    expect((await exportWith("--since", "2999-01-01T00:00:00Z")).lines).toEqual([]);
    const bad = await exportWith("--since", "yesterday-ish");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--since");
  });
});
