import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunTraceV1 } from "../core/run-trace.js";
import type { DetourEvent, Logger } from "../ports/events.js";
import type { TraceStore } from "../ports/trace-store.js";
import { SqliteTraceStore } from "../state/sqlite/sqlite-trace-store.js";
import { MemoryTraceStore } from "../state/memory/memory-trace-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { EventHub } from "./event-hub.js";
import { DEFAULT_TRACE_FLUSH_MS, DEFAULT_TRACE_WRITE_TIMEOUT_MS, TraceRecorder } from "./trace-recorder.js";

const run = { runId: "r1", agentId: "main" };
/** The one attempt of the run, which answered. */
const answeredBy = { provider: "openai", model: "gpt-5", profileId: "openai:a" };
/** The answer's tokens and cost, priced after the run. */
const usage = (priced: { inputTokens: number; outputTokens: number; costUsd: number }): DetourEvent => ({
  type: "usage_recorded",
  ...run,
  ...answeredBy,
  ...priced,
});
const started: Extract<DetourEvent, { type: "run_started" }> = {
  type: "run_started",
  ...run,
  sessionId: null,
  requestedModel: "openai/gpt-5",
  chain: ["openai/gpt-5"],
  selectionSource: "config",
};
const finished: Extract<DetourEvent, { type: "run_finished" }> = {
  type: "run_finished",
  ...run,
  sessionId: null,
  outcome: "succeeded",
  ...answeredBy,
  failedCandidates: 0,
  durationMs: 12,
};

function recorderWith(
  store: TraceStore,
  logger: Logger = { log() {} },
  limits: { maxQueued?: number; maxBatch?: number; flushMs?: number } = {},
) {
  const clock = new FakeClock();
  const hub = new EventHub({ log() {} });
  const recorder = new TraceRecorder({ clock, logger, storeFor: async () => store, ...limits });
  hub.on("*", recorder.onEvent);
  return { hub, recorder, clock };
}

function runOnce(hub: EventHub, runId: string, durationMs = 12): void {
  hub.emit({ ...started, runId });
  hub.emit({ ...finished, runId, durationMs });
}

/** Lets the deferred write (after the current turn of the event loop) start, and its awaits settle. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A memory store that counts its writes and can hold them until the test lets them go. */
class WatchedStore extends MemoryTraceStore {
  readonly batches: string[][] = [];
  gate: Promise<void> | undefined;
  override async appendMany(traces: readonly RunTraceV1[], now: number): Promise<void> {
    this.batches.push(traces.map((trace) => trace.runId));
    if (this.gate) await this.gate;
    await super.appendMany(traces, now);
  }
}

describe("trace recorder", () => {
  it("R-OB-4 a finished run is written off the run's path: not while its events are emitted, within trace flush time", async () => {
    const store = new MemoryTraceStore({ keepRuns: 10, keepHours: 24 });
    const { hub, clock } = recorderWith(store);
    hub.emit(started);
    hub.emit(finished);
    expect(await store.count(clock.now())).toBe(0);
    await nextTurn();
    expect(await store.count(clock.now())).toBe(0);
    clock.advance(DEFAULT_TRACE_FLUSH_MS);
    await nextTurn();
    const [trace] = await store.list({}, clock.now());
    expect(trace).toMatchObject({ runId: "r1", outcome: "succeeded", durationMs: 12, v: 1 });
  });

  it("R-OB-4 the answer's tokens and cost, priced after the run finished, reach its trace while it waits for its write", async () => {
    const store = new MemoryTraceStore({ keepRuns: 10, keepHours: 24 });
    const { hub, clock } = recorderWith(store);
    hub.emit(started);
    hub.emit({ type: "attempt_started", ...run, ...answeredBy });
    hub.emit({ type: "attempt_finished", ...run, ...answeredBy, outcome: "succeeded", reason: null, status: 200, durationMs: 10 });
    hub.emit(finished);
    hub.emit(usage({ inputTokens: 120, outputTokens: 30, costUsd: 0.0009 }));
    clock.advance(DEFAULT_TRACE_FLUSH_MS);
    await nextTurn();
    const [trace] = await store.list({}, clock.now());
    expect(trace?.costUsd).toBeCloseTo(0.0009);
    expect(trace?.attempts[0]).toMatchObject({ inputTokens: 120, outputTokens: 30, costUsd: 0.0009 });
    // Once written, a late usage event changes nothing and holds nothing.
    hub.emit(usage({ inputTokens: 1, outputTokens: 1, costUsd: 1 }));
    const [again] = await store.list({}, clock.now());
    expect(again?.attempts[0]).toMatchObject({ inputTokens: 120 });
  });

  it("R-OB-4 a trace store that fails costs the trace, never the run, and is reported once", async () => {
    const warnings: string[] = [];
    const failing: TraceStore = {
      append: async () => {
        throw new Error("disk full");
      },
      appendMany: async () => {
        throw new Error("disk full");
      },
      list: async () => [],
      count: async () => 0,
      close: async () => {},
    };
    const { hub, recorder } = recorderWith(failing, { log: (level, message) => level === "warn" && warnings.push(message) });
    for (const runId of ["a", "b"]) {
      expect(() => {
        hub.emit({ ...started, runId });
        hub.emit({ ...finished, runId });
      }).not.toThrow();
    }
    await recorder.flush();
    expect(warnings).toEqual(["Run traces could not be written; runs still answer, but are not traced"]);
    expect(recorder.stats()).toEqual({ written: 0, dropped: 2, queued: 0 });
  });

  it("R-OB-4 runs that finish within the flush time are written together, in one store call", async () => {
    const store = new WatchedStore({ keepRuns: 100, keepHours: 24 });
    const { hub, recorder, clock } = recorderWith(store);
    runOnce(hub, "a");
    clock.advance(150);
    await nextTurn();
    runOnce(hub, "b");
    runOnce(hub, "c");
    expect(store.batches).toEqual([]);
    // 200 ms after the first run: all three in one write.
    clock.advance(50);
    await nextTurn();
    expect(store.batches).toEqual([["a", "b", "c"]]);
    runOnce(hub, "d");
    await recorder.flush();
    expect(store.batches).toEqual([["a", "b", "c"], ["d"]]);
    expect((await store.list({}, clock.now())).map((trace) => trace.runId)).toEqual(["a", "b", "c", "d"]);
    expect(recorder.stats()).toEqual({ written: 4, dropped: 0, queued: 0 });
  });

  it("R-OB-4 a full batch is written at once, without waiting for the flush time", async () => {
    const store = new WatchedStore({ keepRuns: 100, keepHours: 24 });
    const { hub, clock } = recorderWith(store, { log() {} }, { maxBatch: 3 });
    for (const runId of ["a", "b", "c", "d"]) runOnce(hub, runId);
    await nextTurn();
    expect(store.batches).toEqual([["a", "b", "c"]]);
    await nextTurn();
    // The rest waits for company, at most the flush time.
    expect(store.batches).toEqual([["a", "b", "c"]]);
    clock.advance(DEFAULT_TRACE_FLUSH_MS);
    await nextTurn();
    expect(store.batches).toEqual([["a", "b", "c"], ["d"]]);
  });

  it("R-OB-4 while the store is slow, runs wait in a bounded queue: the oldest waiting are dropped and counted", async () => {
    const store = new WatchedStore({ keepRuns: 100, keepHours: 24 });
    const { hub, recorder, clock } = recorderWith(store, { log() {} }, { maxQueued: 3, maxBatch: 2, flushMs: 0 });
    let release!: () => void;
    store.gate = new Promise<void>((resolve) => (release = resolve));
    runOnce(hub, "first");
    await nextTurn();
    // "first" is being written and the store hangs; eight more runs finish meanwhile.
    for (let index = 1; index <= 8; index += 1) runOnce(hub, `r${index}`);
    expect(recorder.stats()).toEqual({ written: 0, dropped: 5, queued: 3 });
    store.gate = undefined;
    release();
    await recorder.flush();
    // One write at a time, each at most maxBatch runs: the three newest waiting ones made it.
    expect(store.batches).toEqual([["first"], ["r6", "r7"], ["r8"]]);
    expect((await store.list({}, clock.now())).map((trace) => trace.runId)).toEqual(["first", "r6", "r7", "r8"]);
    expect(recorder.stats()).toEqual({ written: 4, dropped: 5, queued: 0 });
  });

  it("R-OB-4 after a failed write the recorder keeps going: later runs are written when the store is back", async () => {
    const store = new MemoryTraceStore({ keepRuns: 10, keepHours: 24 });
    let down = true;
    const flaky: TraceStore = {
      append: (trace, now) => store.append(trace, now),
      appendMany: async (traces, now) => {
        if (down) throw new Error("connection refused");
        await store.appendMany(traces, now);
      },
      list: (query, now) => store.list(query, now),
      count: (now) => store.count(now),
      close: async () => {},
    };
    const warnings: string[] = [];
    const { hub, recorder, clock } = recorderWith(flaky, { log: (level, message) => level === "warn" && warnings.push(message) });
    runOnce(hub, "lost-1");
    runOnce(hub, "lost-2");
    await recorder.flush();
    down = false;
    runOnce(hub, "kept");
    await recorder.flush();
    expect((await store.list({}, clock.now())).map((trace) => trace.runId)).toEqual(["kept"]);
    expect(recorder.stats()).toEqual({ written: 1, dropped: 2, queued: 0 });
    expect(warnings).toHaveLength(1);
  });

  it("R-OB-4 a store that hangs is given up after the write timeout, and the next runs are written when it answers again", async () => {
    const store = new WatchedStore({ keepRuns: 100, keepHours: 24 });
    const warnings: string[] = [];
    const { hub, recorder, clock } = recorderWith(
      store,
      { log: (level, message) => level === "warn" && warnings.push(message) },
      { flushMs: 0 },
    );
    store.gate = new Promise<void>(() => {});
    runOnce(hub, "stuck");
    await nextTurn();
    runOnce(hub, "waiting");
    await nextTurn();
    expect(recorder.stats()).toEqual({ written: 0, dropped: 0, queued: 1 });
    store.gate = undefined;
    clock.advance(DEFAULT_TRACE_WRITE_TIMEOUT_MS);
    await recorder.flush();
    expect(store.batches).toEqual([["stuck"], ["waiting"]]);
    expect(recorder.stats()).toEqual({ written: 1, dropped: 1, queued: 0 });
    expect(warnings).toEqual(["Run traces could not be written; runs still answer, but are not traced"]);
  });

  it("R-OB-4 50 000 runs through the recorder keep memory and the SQLite file bounded by trace.keepRuns and trace.keepHours", async () => {
    const dir = mkdtempSync(join(tmpdir(), "detour-trace-bound-"));
    const path = join(dir, "agents", "main", "agent", "detour-agent.sqlite");
    const store = SqliteTraceStore.open({ path, retention: { keepRuns: 1000, keepHours: 1 } });
    const memory = new MemoryTraceStore({ keepRuns: 1000, keepHours: 1 });
    try {
      const { hub, recorder, clock } = recorderWith(store);
      const mirrored = new TraceRecorder({ clock, logger: { log() {} }, storeFor: async () => memory });
      hub.on("*", mirrored.onEvent);
      const fileSize = () => statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
      let sizeAfterFirstTenThousand = 0;
      for (let index = 0; index < 50_000; index += 1) {
        runOnce(hub, `run-${index}`);
        // Bursts of 100 runs per turn, 50 ms apart on the fake clock (2000 runs a second): 50 000 runs span 25 s.
        if (index % 100 === 99) {
          clock.advance(50);
          await nextTurn();
          expect(recorder.stats().queued).toBeLessThanOrEqual(2000);
        }
        if (index === 9_999) {
          await recorder.flush();
          sizeAfterFirstTenThousand = fileSize();
        }
      }
      await Promise.all([recorder.flush(), mirrored.flush()]);
      expect(recorder.stats()).toEqual({ written: 50_000, dropped: 0, queued: 0 });
      expect(await store.count(clock.now())).toBe(1000);
      expect(await memory.count(clock.now())).toBe(1000);
      const newest = await store.list({ limit: 1 }, clock.now());
      expect(newest[0]!.runId).toBe("run-49999");
      // The file reuses the pages of dropped runs: 40 000 more runs did not grow it beyond a little slack.
      expect(fileSize()).toBeLessThanOrEqual(sizeAfterFirstTenThousand * 1.5);
      // An hour later the age bound empties the ring at the next write, whatever the count.
      clock.advance(3_600_001);
      runOnce(hub, "an-hour-later");
      await Promise.all([recorder.flush(), mirrored.flush()]);
      expect((await store.list({}, clock.now())).map((trace) => trace.runId)).toEqual(["an-hour-later"]);
      expect((await memory.list({}, clock.now())).map((trace) => trace.runId)).toEqual(["an-hour-later"]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
