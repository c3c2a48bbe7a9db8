/**
 * The in-memory decision snapshot (DESIGN §1) never hides a change: with a real SQLite file shared by two
 * connections (as two processes share it), whatever the other connection writes is seen by the next run,
 * and the runs' own successes keep the round robin (R-PO-3) turning without a store read per run.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_COOLDOWNS } from "../../src/config/defaults.js";
import { createDetour } from "../../src/engine/create-detour.js";
import type { StateStore } from "../../src/ports/state-store.js";
import { MemoryStateStore } from "../../src/state/memory/memory-store.js";
import { SecretBox } from "../../src/state/secrets.js";
import { SqliteStateStore } from "../../src/state/sqlite/sqlite-store.js";
import { FakeClock } from "../../src/testing/fake-clock.js";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function twoConnections(): [StateStore, StateStore] {
  const directory = mkdtempSync(join(tmpdir(), "detour-snapshot-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, "detour-agent.sqlite");
  const key = { key: randomBytes(32), source: "a test key" };
  const open = () => SqliteStateStore.open({ path, secrets: new SecretBox(key, path), lastUsedFlushMs: 0 });
  const mine = open();
  const other = open();
  cleanups.push(
    () => mine.close(),
    () => other.close(),
  );
  return [mine, other];
}

async function engineOn(store: StateStore, clock: FakeClock) {
  const detour = await createDetour({
    config: { agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: [] } } } },
    store,
    clock,
    env: {},
  });
  cleanups.push(() => detour.close());
  return async () => {
    clock.advance(1000);
    const outcome = await detour.runWith({ attempt: async (context) => context.profileId });
    return outcome.result;
  };
}

const key = (name: string) => ({ type: "api_key" as const, provider: "openai", key: `sk-${name}` });

describe.each([
  ["SQLite, another connection on the same file", () => twoConnections()],
  [
    "memory, one store shared",
    (): [StateStore, StateStore] => {
      const store = new MemoryStateStore();
      return [store, store];
    },
  ],
])("decision snapshot over %s", (_name, stores) => {
  it("R-PO-3: round robin keeps turning from the snapshot; R-CD-3: another writer's disable is seen by the next run", async () => {
    const [mine, other] = stores();
    await mine.upsertProfile({ id: "openai:a", credential: key("a") });
    await mine.upsertProfile({ id: "openai:b", credential: key("b") });
    const clock = new FakeClock(Date.UTC(2025, 0, 1));
    const run = await engineOn(mine, clock);

    const first = await run();
    const second = await run();
    expect(new Set([first, second])).toEqual(new Set(["openai:a", "openai:b"]));
    expect(await run()).toBe(first);

    // The other writer disables the profile this run would pick next.
    await other.recordFailure(second as string, {
      reason: "billing",
      provider: "openai",
      now: clock.now(),
      cooldowns: DEFAULT_COOLDOWNS,
    });
    expect(await run()).toBe(first);
    expect(await run()).toBe(first);
  });

  it("R-PO-1: a profile another writer adds, and a stored order it sets, take effect on the next run", async () => {
    const [mine, other] = stores();
    await mine.upsertProfile({ id: "openai:a", credential: key("a") });
    const clock = new FakeClock(Date.UTC(2025, 0, 1));
    const run = await engineOn(mine, clock);
    expect(await run()).toBe("openai:a");

    await other.upsertProfile({ id: "openai:b", credential: key("b") });
    await other.setStoredOrder("openai", ["openai:b", "openai:a"]);
    expect(await run()).toBe("openai:b");
    expect(await run()).toBe("openai:b");
  });
});

describe("decision snapshot: a healthy run reads nothing", () => {
  it("R-CD-7: repeated healthy runs read the profiles and stats once, then decide from memory", async () => {
    const store = new MemoryStateStore();
    await store.upsertProfile({ id: "openai:a", credential: key("a") });
    await store.upsertProfile({ id: "openai:b", credential: key("b") });
    const reads = { listProfiles: 0, getUsageStats: 0 };
    const counted = new Proxy(store, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (property === "listProfiles" || property === "getUsageStats") reads[property] += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const clock = new FakeClock(Date.UTC(2025, 0, 1));
    const run = await engineOn(counted, clock);
    const answered = [];
    for (let index = 0; index < 6; index += 1) answered.push(await run());
    expect(answered).toEqual(["openai:a", "openai:b", "openai:a", "openai:b", "openai:a", "openai:b"]);
    expect(reads).toEqual({ listProfiles: 1, getUsageStats: 2 });
  });
});
