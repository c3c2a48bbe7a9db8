/**
 * The learned first-token summary (R-TT-1) on every backend — memory, a real SQLite file, the real Redis on
 * 127.0.0.1:6379 — including a second handle on the same data (another process or replica) reading it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deleteKeysWithPrefix, SHARED_REDIS_URL, uniquePrefix } from "../../test/state/helpers/redis.js";
import { FIRST_TOKEN_SUMMARY_TTL_MS, type FirstTokenSummaryRow, type FirstTokenSummaryStore } from "../ports/first-token-summary.js";
import { MemoryFirstTokenSummary } from "./memory/memory-first-token-summary.js";
import { RedisFirstTokenSummary } from "./redis/redis-first-token-summary.js";
import { SqliteFirstTokenSummary } from "./sqlite/sqlite-first-token-summary.js";

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function row(provider: string, model: string, p50Ms: number): FirstTokenSummaryRow {
  return { provider, model, samples: 40, p50Ms, p95Ms: p50Ms * 3, p99Ms: p50Ms * 4, deadlineMs: 15_000, hedgeAfterMs: p50Ms * 3 };
}

interface Backend {
  name: string;
  /** Two handles on the same data; for memory, the same object twice. */
  open(): Promise<[FirstTokenSummaryStore, FirstTokenSummaryStore]>;
  cleanup(): Promise<void>;
}

const directory = mkdtempSync(join(tmpdir(), "detour-first-token-"));
const redisPrefix = uniquePrefix();
let sqliteFiles = 0;
const backends: Backend[] = [
  {
    name: "memory",
    open: async () => {
      const store = new MemoryFirstTokenSummary();
      return [store, store];
    },
    cleanup: async () => {},
  },
  {
    name: "sqlite",
    open: async () => {
      sqliteFiles += 1;
      const path = join(directory, `agent-${sqliteFiles}.sqlite`);
      return [SqliteFirstTokenSummary.open(path), SqliteFirstTokenSummary.open(path)];
    },
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  },
  {
    name: "redis",
    open: async () => {
      const agentId = `agent${Math.floor(Math.random() * 1e9)}`;
      const connect = () => RedisFirstTokenSummary.connect({ url: SHARED_REDIS_URL, keyPrefix: redisPrefix, agentId });
      return [await connect(), await connect()];
    },
    cleanup: () => deleteKeysWithPrefix(SHARED_REDIS_URL, redisPrefix),
  },
];

for (const backend of backends) {
  describe(`first-token summary on ${backend.name}`, () => {
    const opened: FirstTokenSummaryStore[] = [];
    const open = async () => {
      const pair = await backend.open();
      opened.push(...pair);
      return pair;
    };
    afterAll(async () => {
      for (const store of new Set(opened)) await store.close();
      await backend.cleanup();
    });

    it("R-TT-1 what one process writes another reads, one row per model, the latest write winning", async () => {
      const [writer, reader] = await open();
      await writer.write([row("openai", "gpt-5", 900), row("anthropic", "claude-sonnet-4-6", 1200)], T0);
      await writer.write([row("openai", "gpt-5", 700)], T0 + 30_000);
      expect(await reader.read(T0 + 31_000)).toEqual([row("anthropic", "claude-sonnet-4-6", 1200), row("openai", "gpt-5", 700)]);
    });

    it("R-TT-1 a row not written again within its lifetime expires; nothing written reads as empty", async () => {
      const [writer, reader] = await open();
      expect(await reader.read(T0)).toEqual([]);
      await writer.write([row("openai", "gpt-5", 900), row("openai", "gpt-4o", 400)], T0);
      await writer.write([row("openai", "gpt-5", 800)], T0 + FIRST_TOKEN_SUMMARY_TTL_MS - 1000);
      expect((await reader.read(T0 + FIRST_TOKEN_SUMMARY_TTL_MS)).map((entry) => entry.model)).toEqual(["gpt-5"]);
      expect(await reader.read(T0 + 3 * FIRST_TOKEN_SUMMARY_TTL_MS)).toEqual([]);
    });
  });
}
