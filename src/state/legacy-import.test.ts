import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { importLegacyOpenClaw, toCredential, toUsageStats } from "./legacy-import.js";
import { MemoryStateStore } from "./memory/memory-store.js";

const fixtureDir = join(import.meta.dirname, "__fixtures__", "openclaw");
const temporaryDirectories: string[] = [];

afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function copyOfFixture(): string {
  const directory = mkdtempSync(join(tmpdir(), "detour-openclaw-"));
  temporaryDirectories.push(directory);
  cpSync(fixtureDir, directory, { recursive: true });
  return directory;
}

function filesWithState(root: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else result[path] = `${stat.mtimeMs}:${stat.mode}:${readFileSync(path, "utf8")}`;
    }
  };
  walk(root);
  return result;
}

describe("legacy OpenClaw import", () => {
  it("R-AP-6: imports profiles, order, lastGood and usage stats, and reports what it imported and skipped", async () => {
    const store = new MemoryStateStore();
    const report = await importLegacyOpenClaw({ openclawDir: fixtureDir, store });

    expect((await store.listProfiles()).map((profile) => profile.id).sort()).toEqual([
      "anthropic:ada@example.com",
      "anthropic:default",
      "google-antigravity:default",
      "openai-codex:default",
      "openai:backup",
      "openai:default",
      "openrouter:default",
    ]);
    // auth-profiles.json is the newest source of credentials and wins over legacy copies.
    expect((await store.getProfile("anthropic:ada@example.com"))?.credential).toEqual({
      type: "oauth",
      provider: "anthropic",
      access: "fixture-profiles-access-anthropic",
      refresh: "fixture-profiles-refresh-anthropic",
      expires: 1767225600000,
      email: "ada@example.com",
    });
    expect((await store.getProfile("anthropic:default"))?.credential).toEqual({
      type: "api_key",
      provider: "anthropic",
      key: "sk-ant-fixture-legacy-auth-json",
    });
    expect((await store.getProfile("google-antigravity:default"))?.credential).toEqual({
      type: "oauth",
      provider: "google-antigravity",
      refresh: "fixture-oauth-json-refresh-google",
      expires: 1767225600000,
      projectId: "fixture-project",
    });
    expect((await store.getProfile("openrouter:default"))?.credential).toEqual({
      type: "token",
      provider: "openrouter",
      token: "fixture-openrouter-token",
    });

    // auth-state.json wins for routing state; orders keep only profiles that exist.
    expect(await store.getStoredOrder("openai")).toEqual(["openai:backup", "openai:default"]);
    expect(await store.getStoredOrder("anthropic")).toEqual(["anthropic:ada@example.com"]);
    expect(await store.getStoredOrder("groq")).toBeUndefined();
    expect(await store.getAllLastGood()).toEqual({ anthropic: "anthropic:ada@example.com", openai: "openai:default" });
    expect(await store.getUsageStats("openai:default")).toEqual({
      lastUsed: 1767000000000,
      errorCount: 2,
      failureCounts: { rate_limit: 2 },
      lastFailureAt: 1767000100000,
      cooldownUntil: 1767000160000,
      cooldownReason: "rate_limit",
      cooldownModel: "gpt-4o",
    });
    expect((await store.getUsageStats("openai:backup"))?.disabledReason).toBe("billing");
    expect((await store.getUsageStats("openai-codex:default"))?.blockedModel).toBe("gpt-5-codex");

    expect(report.imported.filter((item) => item.kind === "profile")).toHaveLength(7);
    expect(
      report.imported
        .filter((item) => item.kind === "order")
        .map((item) => item.id)
        .sort(),
    ).toEqual(["anthropic", "openai"]);
    expect(report.imported.filter((item) => item.kind === "usageStats")).toHaveLength(3);
    const skippedWhy = Object.fromEntries(
      report.skipped.map((item) => [`${item.kind} ${item.id} ${item.from.split("/").pop()}`, item.why]),
    );
    expect(skippedWhy).toEqual({
      "profile mistral:default auth-profiles.json": "api_key without a key",
      "profile openai:default auth.json": expect.stringContaining("superseded by the entry in"),
      "profile anthropic:ada@example.com oauth.json": expect.stringContaining("superseded by the entry in"),
      "profile broken-provider:default oauth.json": "oauth with neither access nor refresh token",
      "order groq auth-state.json": "none of its profiles exist",
    });
    expect(report.sources.every((source) => source.found && source.error === undefined)).toBe(true);
    // The report is shown to operators: it never carries a secret.
    expect(JSON.stringify(report)).not.toMatch(/sk-|fixture-.*-(access|refresh)|fixture-openrouter-token/);
  });

  it("R-AP-6: a second run imports nothing new and changes nothing", async () => {
    const store = new MemoryStateStore();
    await importLegacyOpenClaw({ openclawDir: fixtureDir, store });
    const before = {
      profiles: await store.listProfiles(),
      stats: await store.getAllUsageStats(),
      lastGood: await store.getAllLastGood(),
      order: await store.getStoredOrder("openai"),
    };
    const second = await importLegacyOpenClaw({ openclawDir: fixtureDir, store });
    expect(second.imported).toEqual([]);
    expect(second.skipped.filter((item) => item.kind === "profile" && item.why === "already imported")).toHaveLength(7);
    expect({
      profiles: await store.listProfiles(),
      stats: await store.getAllUsageStats(),
      lastGood: await store.getAllLastGood(),
      order: await store.getStoredOrder("openai"),
    }).toEqual(before);
  });

  it("R-AP-6: the OpenClaw files are only read, never written", async () => {
    const directory = copyOfFixture();
    const before = filesWithState(directory);
    await importLegacyOpenClaw({ openclawDir: directory, store: new MemoryStateStore() });
    expect(filesWithState(directory)).toEqual(before);
  });

  it("R-AP-6: what Detour already holds wins over the import", async () => {
    const store = new MemoryStateStore();
    await store.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-detour" } });
    await store.setStoredOrder("openai", ["openai:default"]);
    await store.replaceUsageStats("openai:default", { lastUsed: 5 });
    const report = await importLegacyOpenClaw({ openclawDir: fixtureDir, store });
    expect((await store.getProfile("openai:default"))?.credential).toEqual({ type: "api_key", provider: "openai", key: "sk-detour" });
    expect(await store.getStoredOrder("openai")).toEqual(["openai:default"]);
    expect(await store.getUsageStats("openai:default")).toEqual({ lastUsed: 5 });
    expect(report.skipped).toContainEqual(
      expect.objectContaining({ kind: "profile", id: "openai:default", why: expect.stringContaining("kept Detour's") }),
    );
    expect(report.skipped).toContainEqual(expect.objectContaining({ kind: "order", id: "openai" }));
    expect(report.skipped).toContainEqual(expect.objectContaining({ kind: "usageStats", id: "openai:default" }));
  });

  it("R-AP-6: missing and unreadable files are reported, and the rest still imports", async () => {
    const directory = copyOfFixture();
    writeFileSync(join(directory, "agents", "main", "agent", "auth-state.json"), "{ not json");
    rmSync(join(directory, "credentials"), { recursive: true });
    const store = new MemoryStateStore();
    const report = await importLegacyOpenClaw({ openclawDir: directory, store });
    const byName = Object.fromEntries(report.sources.map((source) => [source.path.split("/").pop(), source]));
    expect(byName["auth-state.json"]?.error).toMatch(/not readable as JSON/);
    expect(byName["oauth.json"]).toMatchObject({ found: false });
    expect(byName["auth-profiles.json"]).toMatchObject({ found: true });
    expect(await store.getStoredOrder("openai")).toEqual(["openai:default", "openai:backup"]);
    expect(await store.getProfile("google-antigravity:default")).toBeUndefined();

    const nothing = await importLegacyOpenClaw({ openclawDir: join(directory, "does-not-exist"), store: new MemoryStateStore() });
    expect(nothing.imported).toEqual([]);
    expect(nothing.sources.every((source) => !source.found)).toBe(true);
  });

  it("R-AP-1: legacy credential records map onto Detour's credential types", () => {
    const rows: [unknown, string | undefined, ReturnType<typeof toCredential>][] = [
      [{ type: "api_key", key: "k" }, "openai", { type: "api_key", provider: "openai", key: "k" }],
      [{ type: "api_key", provider: "groq", apiKey: "k" }, undefined, { type: "api_key", provider: "groq", key: "k" }],
      [{ access: "a", expires: 5 }, "anthropic", { type: "oauth", provider: "anthropic", access: "a", expires: 5 }],
      [{ type: "token", token: "t" }, "x", { type: "token", provider: "x", token: "t" }],
      [{ type: "api_key", key: "" }, "openai", "api_key without a key"],
      [{ type: "password", key: "k" }, "openai", 'unknown credential type "password"'],
      [{ type: "api_key", key: "k" }, undefined, "no provider"],
      ["sk-bare-string", "openai", "not an object"],
    ];
    for (const [raw, provider, expected] of rows) expect(toCredential(raw, provider)).toEqual(expected);
  });

  it("R-AP-4: legacy usage stats keep the R-AP-4 fields and drop anything malformed", () => {
    expect(
      toUsageStats({
        errorCount: 3,
        cooldownUntil: "soon",
        cooldownReason: "made_up",
        blockedReason: "rate_limit",
        disabledReason: "other",
        failureCounts: { billing: 2, nonsense: 1, rate_limit: "x" },
      }),
    ).toEqual({ errorCount: 3, blockedReason: "rate_limit", failureCounts: { billing: 2 } });
    expect(toUsageStats({ unrelated: 1 })).toBeUndefined();
    expect(toUsageStats(null)).toBeUndefined();
  });
});
