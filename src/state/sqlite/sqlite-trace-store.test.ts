/**
 * The SQLite trace table's layout (R-OB-4): one index besides the rowid, and a file written with the earlier
 * layout (AUTOINCREMENT counter, unique run-id index) is moved over on open with every run kept.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_TRACE_VERSION, type RunTraceV1 } from "../../core/run-trace.js";
import { SqliteTraceStore } from "./sqlite-trace-store.js";

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function traceOf(runId: string, startedAt: number): RunTraceV1 {
  return {
    v: RUN_TRACE_VERSION,
    runId,
    agentId: "main",
    startedAt,
    sessionHash: null,
    request: { requestedModel: "openai/gpt-5", dialect: "openai-chat", stream: false, estimatedInputTokens: 10 },
    chain: ["openai/gpt-5"],
    selectionSource: "config",
    outcome: "succeeded",
    durationMs: 5,
    answeredBy: { provider: "openai", model: "gpt-5", profileId: "openai:a" },
    attempts: [],
    skips: [],
    waits: [],
    headroom: [],
    notices: [],
    continuations: 0,
    hedges: 0,
    costUsd: 0,
  };
}

/** The table as files written before this layout have it. */
const EARLIER_LAYOUT = `
  CREATE TABLE run_traces (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL UNIQUE,
    started_at INTEGER NOT NULL,
    session_hash TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX run_traces_started ON run_traces (started_at);
`;

function layoutOf(path: string): { table: string; indexes: string[] } {
  const db = new Database(path, { readonly: true });
  try {
    const table = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'run_traces'").get() as { sql: string }).sql;
    const indexes = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'run_traces'").all() as { name: string }[]
    ).map((row) => row.name);
    return { table, indexes };
  } finally {
    db.close();
  }
}

describe("SQLite trace table", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const pathIn = () => {
    dir = mkdtempSync(join(tmpdir(), "detour-trace-table-"));
    return join(dir, "detour-agent.sqlite");
  };

  it("R-OB-4 a new file gets a rowid table with the start-time index only (no AUTOINCREMENT counter, no run-id index)", async () => {
    const path = pathIn();
    const store = SqliteTraceStore.open({ path, retention: { keepRuns: 10, keepHours: 24 } });
    await store.appendMany([traceOf("a", T0), traceOf("b", T0 + 1)], T0 + 10);
    await store.close();
    const layout = layoutOf(path);
    expect(layout.table).not.toMatch(/AUTOINCREMENT|UNIQUE/i);
    expect(layout.indexes).toEqual(["run_traces_started"]);
  });

  it("R-OB-4 a file of the earlier layout is moved over on open: every run kept in recording order, then the ring and copies work as before", async () => {
    const path = pathIn();
    const earlier = new Database(path);
    earlier.exec(EARLIER_LAYOUT);
    const insert = earlier.prepare("INSERT INTO run_traces (run_id, started_at, session_hash, body) VALUES (?, ?, ?, ?)");
    // Recorded out of start order: "late-start" finished first.
    for (const trace of [traceOf("late-start", T0 + 50), traceOf("r1", T0 + 10), traceOf("r2", T0 + 20)]) {
      insert.run(trace.runId, trace.startedAt, null, JSON.stringify(trace));
    }
    earlier.close();

    const store = SqliteTraceStore.open({ path, retention: { keepRuns: 4, keepHours: 24 } });
    const now = T0 + 1000;
    expect((await store.list({}, now)).map((trace) => trace.runId)).toEqual(["r1", "r2", "late-start"]);
    const layout = layoutOf(path);
    expect(layout.table).not.toMatch(/AUTOINCREMENT|UNIQUE/i);
    expect(layout.indexes).toEqual(["run_traces_started"]);

    // New runs follow the moved ones in recording order: the ring drops the oldest recorded first.
    await store.appendMany([traceOf("r3", T0 + 30), traceOf("r4", T0 + 40)], now);
    expect((await store.list({}, now)).map((trace) => trace.runId)).toEqual(["r1", "r2", "r3", "r4"]);
    // A run recorded again keeps one copy, the latest.
    await store.append({ ...traceOf("r2", T0 + 20), outcome: "failed", answeredBy: null }, now);
    const listed = await store.list({}, now);
    expect(listed.map((trace) => [trace.runId, trace.outcome])).toEqual([
      ["r2", "failed"],
      ["r3", "succeeded"],
      ["r4", "succeeded"],
    ]);
    await store.close();

    // Opening the moved file again changes nothing.
    const again = SqliteTraceStore.open({ path, retention: { keepRuns: 4, keepHours: 24 } });
    expect((await again.list({}, now)).map((trace) => trace.runId)).toEqual(["r2", "r3", "r4"]);
    await again.close();
  });
});
