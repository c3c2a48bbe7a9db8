/**
 * The trace store contract (R-OB-4): every `TraceStore` backend passes these cases, run by
 * `state/traces/trace-store-contract.test.ts` against memory, a real SQLite file and the real Redis on
 * 127.0.0.1:6379. A fixture: never built into dist/.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { RUN_TRACE_VERSION, type RunTraceV1 } from "../../../core/run-trace.js";
import { hashSessionKey, type TraceRetention, type TraceStore } from "../../../ports/trace-store.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function traceOf(runId: string, startedAt: number, sessionKey: string | null = null): RunTraceV1 {
  return {
    v: RUN_TRACE_VERSION,
    runId,
    agentId: "main",
    startedAt,
    sessionHash: sessionKey === null ? null : hashSessionKey(sessionKey),
    request: { requestedModel: "anthropic/claude-sonnet-4-6", dialect: "anthropic", stream: true, estimatedInputTokens: 1200 },
    chain: ["anthropic/claude-sonnet-4-6", "openai/gpt-5"],
    selectionSource: "config",
    outcome: "succeeded",
    durationMs: 850,
    answeredBy: { provider: "openai", model: "gpt-5", profileId: "openai:default" },
    attempts: [
      {
        offsetMs: 0,
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        profileId: "anthropic:work",
        outcome: "failed",
        status: 429,
        reason: "rate_limit",
        statedResetAt: startedAt + 30_000,
        firstTokenMs: null,
        durationMs: 120,
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
        committed: false,
        continuation: null,
        hedge: false,
      },
      {
        offsetMs: 130,
        provider: "openai",
        model: "gpt-5",
        profileId: "openai:default",
        outcome: "succeeded",
        status: 200,
        reason: null,
        statedResetAt: null,
        firstTokenMs: 310,
        durationMs: 700,
        inputTokens: 1180,
        outputTokens: 240,
        costUsd: 0.0042,
        committed: true,
        continuation: null,
        hedge: false,
      },
    ],
    skips: [],
    waits: [],
    headroom: [],
    notices: [{ offsetMs: 840, kind: "fallback", activeModel: "openai/gpt-5" }],
    continuations: 0,
    hedges: 0,
    costUsd: 0.0042,
  };
}

export interface TraceContractBackend {
  name: string;
  /** What the backend holds outside the process: bytes of the SQLite file, entries of the Redis keys. */
  footprint?(): Promise<number>;
  open(retention: TraceRetention): Promise<TraceStore>;
  /** A second store on the same data (another process or replica); undefined for memory. */
  reopen?(retention: TraceRetention): Promise<TraceStore>;
  cleanup(): Promise<void>;
}

const roomy: TraceRetention = { keepRuns: 1000, keepHours: 24 };

export function runTraceStoreContract(name: string, makeBackend: () => TraceContractBackend): void {
  describe(`trace store contract: ${name}`, () => {
    let backend: TraceContractBackend;
    const opened: TraceStore[] = [];
    async function open(retention: TraceRetention = roomy, again = false): Promise<TraceStore> {
      backend ??= makeBackend();
      const store = again && backend.reopen ? await backend.reopen(retention) : await backend.open(retention);
      opened.push(store);
      return store;
    }

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      if (backend) await backend.cleanup();
      backend = undefined as unknown as TraceContractBackend;
    });
    afterAll(async () => {
      if (backend) await backend.cleanup();
    });

    it("R-OB-4 a recorded trace lists back exactly as written, versioned v 1", async () => {
      const store = await open();
      const trace = traceOf("run-1", T0, "session-a");
      await store.append(trace, T0 + 1000);
      const listed = await store.list({}, T0 + 2000);
      expect(listed).toEqual([trace]);
      expect(listed[0]!.v).toBe(1);
      expect(await store.count(T0 + 2000)).toBe(1);
    });

    it("R-OB-4 the ring keeps at most trace.keepRuns runs, dropping the oldest recorded first", async () => {
      const store = await open({ keepRuns: 5, keepHours: 24 });
      for (let index = 0; index < 12; index += 1) {
        await store.append(traceOf(`run-${String(index).padStart(2, "0")}`, T0 + index * 1000), T0 + index * 1000 + 500);
      }
      const listed = await store.list({}, T0 + 20_000);
      expect(listed.map((trace) => trace.runId)).toEqual(["run-07", "run-08", "run-09", "run-10", "run-11"]);
      expect(await store.count(T0 + 20_000)).toBe(5);
    });

    it("R-OB-4 runs older than trace.keepHours are dropped on write and never listed", async () => {
      const store = await open({ keepRuns: 100, keepHours: 2 });
      await store.append(traceOf("old", T0), T0 + 1000);
      await store.append(traceOf("middle", T0 + HOUR), T0 + HOUR + 1000);
      // Read at T0 + 2.5 h: "old" is past the two hours even though no write pruned it yet.
      expect((await store.list({}, T0 + 2.5 * HOUR)).map((trace) => trace.runId)).toEqual(["middle"]);
      expect(await store.count(T0 + 2.5 * HOUR)).toBe(1);
      await store.append(traceOf("new", T0 + 4 * HOUR), T0 + 4 * HOUR);
      expect((await store.list({}, T0 + 4 * HOUR)).map((trace) => trace.runId)).toEqual(["new"]);
      expect(await store.count(T0 + 4 * HOUR)).toBe(1);
    });

    it("R-OB-4 lists filter by time range and hashed session, oldest first, with a limit keeping the newest", async () => {
      const store = await open();
      // Recorded out of start order: runs finish in a different order than they start.
      await store.append(traceOf("c", T0 + 3000, "session-b"), T0 + 9000);
      await store.append(traceOf("a", T0 + 1000, "session-a"), T0 + 9000);
      await store.append(traceOf("d", T0 + 4000, "session-a"), T0 + 9000);
      await store.append(traceOf("b", T0 + 2000, null), T0 + 9000);
      const now = T0 + 10_000;
      expect((await store.list({}, now)).map((t) => t.runId)).toEqual(["a", "b", "c", "d"]);
      expect((await store.list({ since: T0 + 2000, until: T0 + 4000 }, now)).map((t) => t.runId)).toEqual(["b", "c"]);
      expect((await store.list({ sessionHash: hashSessionKey("session-a") }, now)).map((t) => t.runId)).toEqual(["a", "d"]);
      expect((await store.list({ limit: 2 }, now)).map((t) => t.runId)).toEqual(["c", "d"]);
    });

    it("R-OB-4 a batch of runs written at once is kept in its order and pruned to the bound once", async () => {
      const store = await open({ keepRuns: 4, keepHours: 24 });
      const batch = ["b1", "b2", "b3", "b4", "b5", "b6"].map((runId, index) => traceOf(runId, T0 + index * 10));
      await store.appendMany(batch, T0 + 100);
      await store.appendMany([], T0 + 100);
      expect((await store.list({}, T0 + 200)).map((t) => t.runId)).toEqual(["b3", "b4", "b5", "b6"]);
      expect(await store.count(T0 + 200)).toBe(4);
      // A later batch keeps the ring's recording order: the oldest recorded go first.
      await store.appendMany([traceOf("c1", T0 + 500), traceOf("c2", T0 + 600)], T0 + 700);
      expect((await store.list({}, T0 + 800)).map((t) => t.runId)).toEqual(["b5", "b6", "c1", "c2"]);
    });

    it("R-OB-4 lists filter by outcome and by a model the run asked for or called, the limit keeping the newest matches", async () => {
      const store = await open();
      const failed = (runId: string, startedAt: number): RunTraceV1 => ({
        ...traceOf(runId, startedAt),
        outcome: "failed",
        answeredBy: null,
        attempts: [{ ...traceOf(runId, startedAt).attempts[0]! }],
      });
      await store.appendMany(
        [traceOf("ok-1", T0 + 1), failed("bad-1", T0 + 2), traceOf("ok-2", T0 + 3), failed("bad-2", T0 + 4), traceOf("ok-3", T0 + 5)],
        T0 + 10,
      );
      const now = T0 + 20;
      expect((await store.list({ outcome: "failed" }, now)).map((t) => t.runId)).toEqual(["bad-1", "bad-2"]);
      expect((await store.list({ outcome: "succeeded", limit: 2 }, now)).map((t) => t.runId)).toEqual(["ok-2", "ok-3"]);
      // gpt-5 was called only by the runs that moved to it; the failed ones never got there.
      expect((await store.list({ model: "openai/gpt-5" }, now)).map((t) => t.runId)).toEqual(["ok-1", "ok-2", "ok-3"]);
      expect((await store.list({ model: "gpt-5", limit: 1 }, now)).map((t) => t.runId)).toEqual(["ok-3"]);
      expect(await store.list({ model: "anthropic/claude-sonnet-4-6", limit: 10 }, now)).toHaveLength(5);
      expect(await store.list({ model: "openai/gpt-4o" }, now)).toEqual([]);
      expect(await store.list({ limit: 0 }, now)).toEqual([]);
    });

    it("R-OB-4 a limited list of many runs returns the newest ones across pages of the store", async () => {
      const store = await open({ keepRuns: 2000, keepHours: 24 });
      const traces = Array.from({ length: 450 }, (_, index) => traceOf(`p-${String(index).padStart(4, "0")}`, T0 + index));
      await store.appendMany(traces, T0 + 1000);
      const newest = await store.list({ limit: 300 }, T0 + 2000);
      expect(newest).toHaveLength(300);
      expect(newest[0]!.runId).toBe("p-0150");
      expect(newest.at(-1)!.runId).toBe("p-0449");
    });

    it("R-OB-4 50 000 runs written in batches leave at most trace.keepRuns kept, and the backend's footprint stops growing", async () => {
      const store = await open({ keepRuns: 1000, keepHours: 24 });
      let footprintAt10k = 0;
      for (let batch = 0; batch < 250; batch += 1) {
        const traces = Array.from({ length: 200 }, (_, index) => traceOf(`big-${batch * 200 + index}`, T0 + batch * 200 + index));
        await store.appendMany(traces, T0 + batch * 200 + 200);
        if (batch === 49 && backend.footprint) footprintAt10k = await backend.footprint();
      }
      const now = T0 + 60_000;
      expect(await store.count(now)).toBe(1000);
      const newest = await store.list({ limit: 2 }, now);
      expect(newest.map((trace) => trace.runId)).toEqual(["big-49998", "big-49999"]);
      if (backend.footprint) {
        // SQLite reuses the pages of dropped rows; Redis holds exactly the kept runs in each of its three keys.
        const footprint = await backend.footprint();
        if (backend.name === "redis") expect(footprint).toBe(3000);
        else expect(footprint).toBeLessThanOrEqual(footprintAt10k * 1.5);
      }
    }, 60_000);

    it("R-OB-4 recording the same run again keeps one copy, the latest", async () => {
      const store = await open({ keepRuns: 3, keepHours: 24 });
      await store.append(traceOf("same", T0), T0 + 100);
      await store.append({ ...traceOf("same", T0), outcome: "failed", answeredBy: null }, T0 + 200);
      const listed = await store.list({}, T0 + 300);
      expect(listed).toHaveLength(1);
      expect(listed[0]!.outcome).toBe("failed");
      expect(await store.count(T0 + 300)).toBe(1);
    });

    it("R-OB-4 another process or replica on the same store sees the traces, and the bound holds across them", async () => {
      const first = await open({ keepRuns: 3, keepHours: 24 });
      if (!backend.reopen) {
        expect(backend.name).toBe("memory");
        return;
      }
      const second = await open({ keepRuns: 3, keepHours: 24 }, true);
      await first.append(traceOf("r1", T0 + 1), T0 + 10);
      await second.append(traceOf("r2", T0 + 2), T0 + 10);
      await first.append(traceOf("r3", T0 + 3), T0 + 10);
      await second.append(traceOf("r4", T0 + 4), T0 + 10);
      expect((await first.list({}, T0 + 20)).map((t) => t.runId)).toEqual(["r2", "r3", "r4"]);
      expect((await second.list({}, T0 + 20)).map((t) => t.runId)).toEqual(["r2", "r3", "r4"]);
    });
  });
}
