import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import type { FirstTokenSummaryRow, FirstTokenSummaryStore } from "../ports/first-token-summary.js";
import { MemoryFirstTokenSummary } from "../state/memory/memory-first-token-summary.js";
import { FakeClock } from "../testing/fake-clock.js";
import { createFirstTokenPersistence, FIRST_TOKEN_WRITE_EVERY_MS } from "./first-token-persistence.js";
import { hedgingFromConfig } from "./hedging-deps.js";

function setup(options: { readOnly?: boolean } = {}) {
  const clock = new FakeClock();
  const { config } = parseConfig({
    agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } } },
  });
  const hedging = hedgingFromConfig(config);
  const memory = new MemoryFirstTokenSummary();
  const writes: { at: number; rows: FirstTokenSummaryRow[] }[] = [];
  const store: FirstTokenSummaryStore = {
    write: async (rows, now) => {
      writes.push({ at: now, rows: [...rows] });
      await memory.write(rows, now);
    },
    read: (now) => memory.read(now),
    close: async () => {},
  };
  const persistence = createFirstTokenPersistence({
    config,
    clock,
    logger: { log() {} },
    hedging,
    backend: "sqlite",
    readOnly: options.readOnly === true,
    open: async () => store,
    timers: clock,
  });
  const sample = (provider: string, model: string, ms: number) => {
    hedging.samples.record(provider, model, ms);
    persistence.noteSample();
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { clock, persistence, writes, sample, settle, memory };
}

describe("first-token figures kept in the store", () => {
  it("R-TT-1 writes at once, then at most every 30 s with one trailing write for what the window learned, off the request's turn", async () => {
    const { clock, writes, sample, settle } = setup();
    sample("openai", "gpt-5", 800);
    expect(writes).toHaveLength(0);
    await settle();
    expect(writes.map((write) => write.rows[0]?.samples)).toEqual([1]);
    await clock.advanceAsync(1_000);
    for (let index = 0; index < 20; index += 1) sample("openai", "gpt-5", 900);
    await settle();
    expect(writes).toHaveLength(1);
    await clock.advanceAsync(FIRST_TOKEN_WRITE_EVERY_MS - 1_000);
    await settle();
    expect(writes.map((write) => write.rows[0]?.samples)).toEqual([1, 21]);
    expect(writes[1]!.at - writes[0]!.at).toBe(FIRST_TOKEN_WRITE_EVERY_MS);
    // Nothing learned since: no more writes.
    await clock.advanceAsync(5 * FIRST_TOKEN_WRITE_EVERY_MS);
    expect(writes).toHaveLength(2);
  });

  it("R-TT-1 only the configured models are written; status rows add the store's figures for models this process has not sampled", async () => {
    const { writes, sample, settle, persistence, clock, memory } = setup();
    sample("openai", "gpt-5", 800);
    sample("openai", "not-configured", 800);
    await settle();
    expect(writes[0]!.rows.map((row) => `${row.provider}/${row.model}`)).toEqual(["openai/gpt-5"]);
    const other = {
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      samples: 9,
      p50Ms: 1,
      p95Ms: 2,
      p99Ms: 3,
      deadlineMs: 4,
      hedgeAfterMs: 5,
    };
    await memory.write([other], clock.now());
    const rows = await persistence.rows(clock.now());
    expect(rows.map((row) => `${row.provider}/${row.model}`)).toEqual([
      "anthropic/claude-sonnet-4-6",
      "openai/gpt-5",
      "openai/not-configured",
    ]);
    expect(rows[0]).toEqual(other);
  });

  it("R-TT-1 a read-only engine (the CLI) never writes", async () => {
    const { writes, sample, settle, clock } = setup({ readOnly: true });
    sample("openai", "gpt-5", 800);
    await settle();
    await clock.advanceAsync(2 * FIRST_TOKEN_WRITE_EVERY_MS);
    expect(writes).toHaveLength(0);
  });
});
