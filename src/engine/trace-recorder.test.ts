import { describe, expect, it } from "vitest";
import type { DetourEvent, Logger } from "../ports/events.js";
import type { TraceStore } from "../ports/trace-store.js";
import { MemoryTraceStore } from "../state/memory/memory-trace-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { EventHub } from "./event-hub.js";
import { TraceRecorder } from "./trace-recorder.js";

const run = { runId: "r1", agentId: "main" };
const started: DetourEvent = { type: "run_started", ...run, sessionId: null, requestedModel: "openai/gpt-5", chain: ["openai/gpt-5"], selectionSource: "config" };
const finished: DetourEvent = { type: "run_finished", ...run, sessionId: null, outcome: "succeeded", provider: "openai", model: "gpt-5", profileId: "openai:a", failedCandidates: 0, durationMs: 12 };

function recorderWith(store: TraceStore, logger: Logger = { log() {} }) {
  const clock = new FakeClock();
  const hub = new EventHub({ log() {} });
  const recorder = new TraceRecorder({ clock, logger, storeFor: async () => store });
  hub.on("*", recorder.onEvent);
  return { hub, recorder, clock };
}

describe("trace recorder", () => {
  it("R-OB-4 a finished run is written after the run's own turn, not while its events are emitted", async () => {
    const store = new MemoryTraceStore({ keepRuns: 10, keepHours: 24 });
    const { hub, recorder, clock } = recorderWith(store);
    hub.emit(started);
    hub.emit(finished);
    expect(await store.count(clock.now())).toBe(0);
    await recorder.flush();
    const [trace] = await store.list({}, clock.now());
    expect(trace).toMatchObject({ runId: "r1", outcome: "succeeded", durationMs: 12, v: 1 });
  });

  it("R-OB-4 a trace store that fails costs the trace, never the run, and is reported once", async () => {
    const warnings: string[] = [];
    const failing: TraceStore = {
      append: async () => {
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
  });
});
