/**
 * Records every run as a trace (R-OB-4): listens to the event hub, assembles each run's trace, and writes it
 * to the agent's trace store after the run, off the response's path. Best effort: a store that fails costs
 * the trace, never the answer, and says so once in the log.
 */
import type { DetourEvent, Logger } from "../ports/events.js";
import type { Clock } from "../ports/clock.js";
import type { TraceStore } from "../ports/trace-store.js";
import { RunTraceBuilder } from "../runner/run-trace-builder.js";

/** Runs in flight that are followed at once; past it the oldest is given up (a run that never reported its end). */
const MAX_OPEN_RUNS = 10_000;

export interface TraceRecorderOptions {
  clock: Clock;
  logger: Logger;
  /** The trace store of an agent, opened on first use. */
  storeFor(agentId: string): Promise<TraceStore>;
}

export class TraceRecorder {
  readonly #options: TraceRecorderOptions;
  readonly #open = new Map<string, RunTraceBuilder>();
  readonly #pending = new Set<Promise<void>>();
  #warned = false;

  constructor(options: TraceRecorderOptions) {
    this.#options = options;
  }

  readonly onEvent = (event: DetourEvent): void => {
    if (!("runId" in event) || event.runId === null) return;
    const at = this.#options.clock.now();
    if (event.type === "run_started") {
      if (this.#open.size >= MAX_OPEN_RUNS) {
        const oldest = this.#open.keys().next().value;
        if (oldest !== undefined) this.#open.delete(oldest);
      }
      const builder = new RunTraceBuilder();
      builder.observe(event, at);
      this.#open.set(event.runId, builder);
      return;
    }
    const builder = this.#open.get(event.runId);
    if (!builder) return;
    builder.observe(event, at);
    if (event.type !== "run_finished") return;
    this.#open.delete(event.runId);
    const trace = builder.finish();
    if (!trace) return;
    // After the current turn of the event loop: the answer goes out first, the trace is written behind it.
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => (await this.#options.storeFor(trace.agentId)).append(trace, this.#options.clock.now()))
      .catch((error: unknown) => this.#warnOnce(error))
      .finally(() => this.#pending.delete(write));
    this.#pending.add(write);
  };

  /** Waits for the writes already queued (close, tests). */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  #warnOnce(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#options.logger.log("warn", "Run traces could not be written; runs still answer, but are not traced", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
