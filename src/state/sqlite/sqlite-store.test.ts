import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStateStore } from "../open-store.js";
import { SecretBox, type SecretKey } from "../secrets.js";
import { SecretKeyMismatchError, StateSchemaTooNewError } from "../state-errors.js";
import { CONTRACT_COOLDOWNS, runStoreContract } from "../__fixtures__/store-contract/index.js";
import { migrate, SCHEMA_VERSION } from "./schema.js";
import { openDatabaseFile, sqliteStatePath } from "./sqlite-file.js";
import { SqliteStateStore } from "./sqlite-store.js";

const temporaryDirectories: string[] = [];

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "detour-sqlite-"));
  temporaryDirectories.push(directory);
  return directory;
}

function newKey(): SecretKey {
  return { key: randomBytes(32), source: "a test key" };
}

function openAt(path: string, key: SecretKey, lastUsedFlushMs = 1000): SqliteStateStore {
  return SqliteStateStore.open({ path, secrets: new SecretBox(key, path), lastUsedFlushMs });
}

afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

runStoreContract(
  "sqlite",
  async () => {
    const directory = temporaryDirectory();
    const path = join(directory, "detour-agent.sqlite");
    const key = newKey();
    const store = openAt(path, key);
    return {
      store,
      cleanup: () => store.close(),
      openSibling: async () => openAt(path, key),
      readAtRest: async () =>
        [path, `${path}-wal`]
          .filter((file) => existsSync(file))
          .map((file) => readFileSync(file).toString("latin1"))
          .join("\n"),
    };
  },
  { sharedState: true, encryptsAtRest: true },
);

describe("sqlite backend", () => {
  it("R-SB-1: one file per agent under $DETOUR_HOME/agents/<id>/agent, 0600 in 0700 directories, WAL", async () => {
    const detourHome = temporaryDirectory();
    const store = await openStateStore({ backend: "sqlite", agentId: "ops", detourHome, secretKey: newKey().key });
    await store.recordFailure("openai:a", {
      reason: "rate_limit",
      provider: "openai",
      now: 1,
      cooldowns: CONTRACT_COOLDOWNS,
    });
    const path = join(detourHome, "agents", "ops", "agent", "detour-agent.sqlite");
    expect(sqliteStatePath(detourHome, "ops")).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(join(detourHome, "agents", "ops")).mode & 0o777).toBe(0o700);
    await store.close();
    const db = openDatabaseFile(path);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    db.close();
  });

  it("R-SB-1: agent ids cannot escape the agents directory", async () => {
    const detourHome = temporaryDirectory();
    for (const agentId of ["../evil", "a/b", "..", ""]) {
      await expect(openStateStore({ backend: "sqlite", agentId, detourHome, secretKey: newKey().key })).rejects.toMatchObject({
        code: "DETOUR_STATE_CONFIG_INVALID",
      });
    }
  });

  it("R-SB-1: a file written by schema v1 is migrated forward with its data", async () => {
    const path = join(temporaryDirectory(), "v1.sqlite");
    const key = newKey();
    const v1 = openDatabaseFile(path);
    expect(migrate(v1, { path, now: 1, targetVersion: 1 })).toEqual([1]);
    v1.prepare("INSERT INTO usage_stats (profile_id, stats) VALUES (?, ?)").run(
      "openai:a",
      JSON.stringify({ lastUsed: 1234, errorCount: 2, failureCounts: { rate_limit: 2 }, cooldownUntil: 99_999 }),
    );
    v1.prepare("INSERT INTO sessions (session_key, entry) VALUES (?, ?)").run(
      "s1",
      JSON.stringify({ modelOverride: "gpt-4o", modelOverrideSource: "user" }),
    );
    v1.close();

    const store = openAt(path, key);
    expect(await store.getUsageStats("openai:a")).toEqual({
      lastUsed: 1234,
      errorCount: 2,
      failureCounts: { rate_limit: 2 },
      cooldownUntil: 99_999,
    });
    expect(await store.getSession("s1")).toEqual({ sessionKey: "s1", modelOverride: "gpt-4o", modelOverrideSource: "user" });
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT max(version) AS v FROM schema_version").get()).toEqual({ v: SCHEMA_VERSION });
    expect(db.prepare("SELECT stats, last_used FROM usage_stats").get()).toEqual({
      stats: JSON.stringify({ errorCount: 2, failureCounts: { rate_limit: 2 }, cooldownUntil: 99_999 }),
      last_used: 1234,
    });
    db.close();
  });

  it("R-SB-1: a file from a newer schema is refused with a clear error, untouched", () => {
    const path = join(temporaryDirectory(), "future.sqlite");
    const db = openDatabaseFile(path);
    migrate(db, { path, now: 1 });
    db.prepare("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)").run(SCHEMA_VERSION + 1, 2);
    db.close();
    expect(() => openAt(path, newKey())).toThrow(StateSchemaTooNewError);
    expect(() => openAt(path, newKey())).toThrow(/Upgrade Detour/);
  });

  it("R-SB-4: opening the file with another key fails with a typed error naming the cause", async () => {
    const path = join(temporaryDirectory(), "keyed.sqlite");
    const store = openAt(path, newKey());
    await store.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-x" } });
    await store.close();
    let caught: unknown;
    try {
      openAt(path, { key: randomBytes(32), source: "DETOUR_SECRET_KEY" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SecretKeyMismatchError);
    expect((caught as SecretKeyMismatchError).code).toBe("DETOUR_SECRET_KEY_MISMATCH");
    expect((caught as Error).message).toContain("DETOUR_SECRET_KEY");
    expect((caught as Error).message).toContain("different key");
  });

  it("R-SB-4: a credential row moved to another profile id does not decrypt", async () => {
    const path = join(temporaryDirectory(), "moved.sqlite");
    const key = newKey();
    const store = openAt(path, key);
    await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-a" } });
    await store.close();
    const db = new Database(path);
    db.prepare("INSERT INTO profiles (id, provider, type, secret) SELECT 'openai:b', provider, type, secret FROM profiles").run();
    db.close();
    const reopened = openAt(path, key);
    await expect(reopened.getProfile("openai:b")).rejects.toBeInstanceOf(SecretKeyMismatchError);
    await reopened.close();
  });

  it("R-SB-2: a commit by another connection is seen in the next event-loop turn, with one freshness look per turn", async () => {
    const path = join(temporaryDirectory(), "turns.sqlite");
    const store = openAt(path, newKey());
    await store.recordFailure("openai:a", { reason: "rate_limit", provider: "openai", now: 1, cooldowns: CONTRACT_COOLDOWNS });
    // A raw connection stands in for another process: it does not tell this process's stores it wrote.
    const otherProcess = new Database(path);
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const writeElsewhere = (errorCount: number) =>
      otherProcess
        .prepare("UPDATE usage_stats SET stats = json_set(stats, '$.errorCount', ?) WHERE profile_id = ?")
        .run(errorCount, "openai:a");

    await nextTurn();
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
    writeElsewhere(7);
    // Same turn: the freshness look is not repeated per read (it costs as much as the reads themselves).
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
    await nextTurn();
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(7);
    expect((await store.getAllUsageStats())["openai:a"]?.errorCount).toBe(7);
    writeElsewhere(9);
    await nextTurn();
    expect((await store.getAllUsageStats())["openai:a"]?.errorCount).toBe(9);
    // Read-modify-write never trusts the cache: it reads the locked row.
    writeElsewhere(20);
    const next = await store.recordFailure("openai:a", { reason: "rate_limit", provider: "openai", now: 2, cooldowns: CONTRACT_COOLDOWNS });
    expect(next.errorCount).toBe(21);
    otherProcess.close();
    await store.close();
  });

  it("R-SB-2: the success path of a healthy profile batches lastUsed instead of writing per request", async () => {
    const path = join(temporaryDirectory(), "batch.sqlite");
    const key = newKey();
    const store = openAt(path, key, 60_000);
    const observer = openAt(path, key);
    await store.recordSuccess("openai:a", { provider: "openai", now: 1_000 });
    await store.recordSuccess("openai:a", { provider: "openai", now: 2_000 });
    await store.markUsed("openai:a", 3_000);
    expect((await store.getUsageStats("openai:a"))?.lastUsed).toBe(3_000);
    expect((await observer.getUsageStats("openai:a"))?.lastUsed).toBe(1_000);
    // A failure recorded elsewhere meanwhile survives the later batch.
    await observer.recordFailure("openai:a", { reason: "billing", provider: "openai", now: 3_500, cooldowns: CONTRACT_COOLDOWNS });
    await store.close();
    const stats = await observer.getUsageStats("openai:a");
    expect(stats?.lastUsed).toBe(3_000);
    expect(stats?.disabledReason).toBe("billing");
    await observer.close();
  });
});

describe("sqlite backend secret key", () => {
  it("R-SB-4: an existing store whose key file went missing is refused instead of getting a new key", async () => {
    const detourHome = temporaryDirectory();
    const env = {};
    const store = await openStateStore({ backend: "sqlite", agentId: "main", detourHome, env });
    await store.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
    await store.close();
    const reopened = await openStateStore({ backend: "sqlite", agentId: "main", detourHome, env });
    expect((await reopened.getProfile("openai:default"))?.credential).toMatchObject({ key: "sk-1" });
    await reopened.close();
    rmSync(join(detourHome, "secret.key"));
    await expect(openStateStore({ backend: "sqlite", agentId: "main", detourHome, env })).rejects.toMatchObject({
      code: "DETOUR_SECRET_KEY_MISSING",
    });
    expect(existsSync(join(detourHome, "secret.key"))).toBe(false);
  });
});
