/**
 * `detour auth …` and `detour sessions …` as spawned processes: secrets in through stdin, out only as
 * fingerprints (R-OB-2); bad input exits 2 naming the problem (R-CL-1).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { CliResult } from "./helpers/run-detour.js";
import { sandboxPerFile } from "./helpers/sandbox-per-file.js";

const OPENAI_KEY = "sk-cli-test-openai-0123456789abcdef";
const OPENAI_KEY_2 = "sk-cli-test-openai-second-fedcba9876";
const ANTHROPIC_REFRESH = "rt-cli-test-anthropic-refresh-55555";

function fingerprint(secret: string): string {
  return `sha256:${createHash("sha256").update(secret).digest("hex").slice(0, 8)}`;
}

function expectNoSecrets(result: CliResult): void {
  for (const secret of [OPENAI_KEY, OPENAI_KEY_2, ANTHROPIC_REFRESH]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

const sandbox = sandboxPerFile();

describe("detour auth", () => {
  it("R-CL-1: auth add --key - reads the key from stdin and prints only its fingerprint", async () => {
    const added = await sandbox.run(["auth", "add", "openai", "--key", "-"], { stdin: `${OPENAI_KEY}\n` });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Stored openai:default (api_key, ${fingerprint(OPENAI_KEY)})`);
    expectNoSecrets(added);

    const second = await sandbox.run(["auth", "add", "openai", "--key", "-", "--id", "openai:work", "--json"], { stdin: OPENAI_KEY_2 });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      profileId: "openai:work",
      provider: "openai",
      type: "api_key",
      fingerprint: fingerprint(OPENAI_KEY_2),
      agentId: "main",
      replaced: false,
    });

    const oauth = await sandbox.run(["auth", "add", "anthropic", "--type", "oauth", "--key", "-", "--json"], {
      stdin: JSON.stringify({ refresh: ANTHROPIC_REFRESH, expires: 1, email: "me@example.com" }),
    });
    expect(oauth.code, oauth.stderr).toBe(0);
    expect(JSON.parse(oauth.stdout)).toMatchObject({
      profileId: "anthropic:me@example.com",
      type: "oauth",
      fingerprint: fingerprint(ANTHROPIC_REFRESH),
    });
    expectNoSecrets(oauth);
  });

  it("R-CL-1: a key given on the command line is stored, with a warning that points to --key -", async () => {
    const literal = "tok-cli-test-openrouter-literal-777";
    const added = await sandbox.run(["auth", "add", "openrouter", "--type", "token", "--key", literal, "--json"]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ profileId: "openrouter:default", type: "token", fingerprint: fingerprint(literal) });
    expect(added.stderr).toContain("stays in your shell history");
    expect(added.stderr).toContain("--key -");
    expect(added.stdout + added.stderr).not.toContain(literal);
    expect((await sandbox.run(["auth", "remove", "openrouter:default"])).code).toBe(0);
  });

  it("R-OB-2: auth list shows type and fingerprint, never a secret (table and --json)", async () => {
    const table = await sandbox.run(["auth", "list"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/openai:default\s+api_key\s+store\s+sha256:[0-9a-f]{8}\s+ok/);
    expect(table.stdout).toContain(fingerprint(OPENAI_KEY_2));
    expectNoSecrets(table);
    const json = await sandbox.run(["auth", "list", "--json", "--provider", "openai"]);
    expect(json.code, json.stderr).toBe(0);
    const listed = JSON.parse(json.stdout) as { profiles: { id: string; fingerprint: string; usable: boolean }[] };
    expect(listed.profiles.map((profile) => [profile.id, profile.fingerprint, profile.usable])).toEqual([
      ["openai:default", fingerprint(OPENAI_KEY), true],
      ["openai:work", fingerprint(OPENAI_KEY_2), true],
    ]);
    expectNoSecrets(json);
  });

  it("R-CL-1: auth order set stores an order; bad ids exit 2 naming them", async () => {
    const set = await sandbox.run(["auth", "order", "set", "openai", "openai:work", "openai:default", "--json"]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ provider: "openai", agentId: "main", order: ["openai:work", "openai:default"] });
    // status shows the stored order, which wins over auth.order (R-AP-3).
    const status = await sandbox.run(["status", "--json"]);
    expect((JSON.parse(status.stdout) as { order: unknown }).order).toEqual([
      { provider: "openai", profiles: ["openai:work", "openai:default"], source: "stored" },
    ]);
    expect((await sandbox.run(["status"])).stdout).toContain(
      "Order of openai: openai:work → openai:default  (set with `detour auth order set`)",
    );

    const foreign = await sandbox.run(["auth", "order", "set", "openai", "anthropic:me@example.com"]);
    expect(foreign.code, foreign.stderr).toBe(2);
    expect(foreign.stderr).toContain('Profile id "anthropic:me@example.com" does not belong to provider "openai"');
    const unknown = await sandbox.run(["auth", "order", "set", "openai", "openai:ghost"]);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('No profile "openai:ghost"');
    const empty = await sandbox.run(["auth", "order", "set", "openai"]);
    expect(empty.code, empty.stderr).toBe(2);
    expect(empty.stderr).toContain("or pass --clear");
    const cleared = await sandbox.run(["auth", "order", "set", "openai", "--clear"]);
    expect(cleared.code, cleared.stderr).toBe(0);
  });

  it.each([
    [["auth", "add", "openai", "--key", "-"], "", /--key -: nothing was read from stdin/],
    [["auth", "add", "Open AI", "--key", "k"], undefined, /Invalid provider "Open AI"/],
    [["auth", "add", "openai", "--key", "k", "--id", "work"], undefined, /Invalid profile id "work"/],
    [["auth", "add", "openai"], undefined, /required option '--key <key>' not specified/],
    [["auth", "add", "anthropic", "--type", "oauth", "--key", "{not json"], undefined, /neither a refresh token nor valid JSON/],
    [["auth", "remove", "openai:ghost"], undefined, /No stored profile "openai:ghost"/],
    [["auth", "reset", "openai:ghost"], undefined, /No profile "openai:ghost"/],
    [["auth", "list", "--agent", "../etc"], undefined, /agent id/i],
  ])("R-CL-1: %j exits 2 naming the problem", async (args, stdin, message) => {
    const result = await sandbox.run(args, stdin === undefined ? {} : { stdin });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("R-CL-1: auth remove deletes a stored profile", async () => {
    const removed = await sandbox.run(["auth", "remove", "openai:work"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("Removed openai:work");
    const listed = JSON.parse((await sandbox.run(["auth", "list", "--json"])).stdout) as { profiles: { id: string }[] };
    expect(listed.profiles.map((profile) => profile.id)).not.toContain("openai:work");
  });
});

describe("detour sessions", () => {
  it("R-SO-4: sessions patch sets a strict user choice; show and list print it", async () => {
    const patched = await sandbox.run(["sessions", "patch", "chat-1", "--model", "openai/gpt-4o", "--profile", "openai:default", "--json"]);
    expect(patched.code, patched.stderr).toBe(0);
    expect(JSON.parse(patched.stdout)).toMatchObject({
      sessionKey: "chat-1",
      selectedModel: "openai/gpt-4o",
      modelOverrideSource: "user",
      authProfileOverride: "openai:default",
      authProfileOverrideSource: "user",
    });
    const shown = await sandbox.run(["sessions", "show", "chat-1"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/model:\s+openai\/gpt-4o \(user\)/);
    const listed = await sandbox.run(["sessions", "list", "--json"]);
    expect((JSON.parse(listed.stdout) as { sessions: { sessionKey: string }[] }).sessions.map((session) => session.sessionKey)).toEqual([
      "chat-1",
    ]);
  });

  it("R-SO-3: sessions reset keeps the user's choice", async () => {
    const reset = await sandbox.run(["sessions", "reset", "chat-1", "--json"]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ selectedModel: "openai/gpt-4o", modelOverrideSource: "user" });
  });

  it("R-CL-1: sessions patch --model none removes the choice", async () => {
    const cleared = await sandbox.run(["sessions", "patch", "chat-1", "--model", "none", "--profile", "none", "--json"]);
    expect(cleared.code, cleared.stderr).toBe(0);
    const session = JSON.parse(cleared.stdout) as Record<string, unknown>;
    expect(session.selectedModel).toBeUndefined();
    expect(session.authProfileOverride).toBeUndefined();
  });

  it.each([
    [["sessions", "patch", "chat-1"], /needs --model and\/or --profile/],
    [["sessions", "patch", "chat-1", "--model", "no-slash"], /no-slash/],
    [["sessions", "patch", "chat-1", "--model", "acme/gpt-9"], /unknown provider "acme"; known providers: /],
    [["sessions", "patch", "chat-1", "--profile", "nocolon"], /Invalid --profile "nocolon"/],
    [["sessions", "show", "ghost"], /No session "ghost"/],
    [["sessions", "reset", "ghost"], /No session "ghost"/],
  ])("R-CL-1: %j exits 2 naming the problem", async (args, message) => {
    const result = await sandbox.run(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
