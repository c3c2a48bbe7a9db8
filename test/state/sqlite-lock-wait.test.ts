/**
 * R-SB-5 bounded lock waits: while another connection holds the SQLite write lock, a write waits without
 * blocking the event loop (a short busy_timeout plus asynchronous retries), keeps its transaction atomic,
 * and fails with a typed error naming the file once the wait is over.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SecretBox } from "../../src/state/secrets.js";
import { SqliteStateStore } from "../../src/state/sqlite/sqlite-store.js";
import { StoreUnavailableError } from "../../src/state/state-errors.js";
import { CONTRACT_COOLDOWNS } from "../../src/state/__fixtures__/store-contract/index.js";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openStore(lockWaitMs?: number) {
  const directory = mkdtempSync(join(tmpdir(), "detour-lock-"));
  const path = join(directory, "detour-agent.sqlite");
  const store = SqliteStateStore.open({
    path,
    secrets: new SecretBox({ key: randomBytes(32), source: "a test key" }, path),
    ...(lockWaitMs !== undefined ? { lockWaitMs } : {}),
  });
  // Another process's connection: it takes the write lock and keeps it.
  const other = new Database(path);
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  cleanups.push(() => void other.close());
  return { store, other, path };
}

/** The longest gap between 5 ms ticks while `work` runs: how long the event loop was blocked. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    return { result: await work(), stallMs };
  } finally {
    clearInterval(ticker);
  }
}

const failure = { reason: "overloaded" as const, provider: "openai", now: 1_000, cooldowns: CONTRACT_COOLDOWNS };

describe("SQLite lock waits (R-SB-5)", () => {
  it("R-SB-5: a write waiting for another process's lock never blocks the event loop, and lands once it is free", async () => {
    const { store, other } = openStore();
    other.exec("BEGIN IMMEDIATE");
    // Released by a timer: with a blocking busy_timeout this timer could not even fire until the wait ended.
    setTimeout(() => other.exec("COMMIT"), 400);
    const { result, stallMs } = await longestStall(() => store.recordFailure("openai:a", failure));
    expect(result.errorCount).toBe(1);
    expect(stallMs).toBeLessThan(150);
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
  });

  it("R-SB-5: a write that cannot get the lock in time fails with DETOUR_STORE_UNAVAILABLE naming the file, and wrote nothing", async () => {
    const { store, other, path } = openStore(200);
    other.exec("BEGIN IMMEDIATE");
    const { result: error, stallMs } = await longestStall(() =>
      store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-a" } }).then(
        () => undefined,
        (caught: unknown) => caught,
      ),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe("DETOUR_STORE_UNAVAILABLE");
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain("nothing was stored");
    expect(stallMs).toBeLessThan(150);
    other.exec("COMMIT");
    expect(await store.listProfiles()).toEqual([]);
  });

  it("R-SB-2: concurrent failures retried under lock contention all count exactly once", async () => {
    const { store, other } = openStore();
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 150);
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.recordFailure("openai:a", { ...failure, now: 1_000 + index })));
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(10);
  });
});
