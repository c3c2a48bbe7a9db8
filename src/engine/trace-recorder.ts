/**
 * Records every run as a trace (R-OB-4): listens to the event hub, assembles each run's trace, and writes it
 * to the agent's trace store after the run, off the response's path.
 *
 * Writes are batched: a finished run only joins a queue, and the queue is written at most `flushMs` (200 ms)
 * later — at once, after the current turn of the event loop, when a full batch is waiting — every run that
 * finished meanwhile in one store call (one SQLite transaction, one Redis script). A store write has a fixed
 * cost (the commit) that a batch pays once, so the busier the gateway, the less each trace costs. While a
 * write is under way the next runs wait in the queue, so a slow store gets bigger batches, not more writes. The queue is bounded: past its bound the oldest waiting
 * trace is dropped and counted, so a store that is down or slow costs traces, never memory or answers.
 * A failed write drops its batch (counted) and is reported once in the log; runs still answer.
 */
import type { DetourEvent, Logger } from "../ports/events.js";
import type { Clock } from "../ports/clock.js";
import type { RunTraceV1 } from "../core/run-trace.js";
import type { TraceStore } from "../ports/trace-store.js";
import { RunTraceBuilder, TRACED_EVENT_TYPES } from "../runner/run-trace-builder.js";

/** Runs in flight that are followed at once; past it the oldest is given up (a run that never reported its end). */
const MAX_OPEN_RUNS = 10_000;
/** Finished runs waiting for their write, at most; past it the oldest waiting one is dropped. */
export const DEFAULT_MAX_QUEUED_TRACES = 2_000;
/**
 * Runs written in one store call, at most: a long queue is written in several batches, with a turn of the
 * event loop between them, so no single write holds the loop for long (200 SQLite rows: a few milliseconds).
 */
export const DEFAULT_MAX_TRACE_BATCH = 200;
/** How long a finished run waits, at most, for the runs that finish after it to share its write. */
export const DEFAULT_TRACE_FLUSH_MS = 200;
/**
 * A write not settled after this long is given up (its traces counted as dropped) so the next can start: a
 * store that hangs (a network partition that never resets the connection) must not stop recording for good.
 */
export const DEFAULT_TRACE_WRITE_TIMEOUT_MS = 10_000;

/** What the recorder did since it started; read by `/metrics`. */
export interface TraceWriteStats {
  /** Traces the store accepted. */
  written: number;
  /** Traces given up: the queue was full, or their write failed. */
  dropped: number;
  /** Traces waiting for their write right now. */
  queued: number;
}

export interface TraceRecorderOptions {
  clock: Clock;
  logger: Logger;
  /** The trace store of an agent, opened on first use. */
  storeFor(agentId: string): Promise<TraceStore>;
  maxQueued?: number;
  maxBatch?: number;
  /** The longest a trace waits for its write (on `clock`); 0 writes after the current turn of the event loop. */
  flushMs?: number;
  writeTimeoutMs?: number;
  /** Runs `write` once the current turn of the event loop is over. Default: `setImmediate`. */
  defer?: (write: () => void) => void;
}

export class TraceRecorder {
  readonly #options: TraceRecorderOptions;
  readonly #maxQueued: number;
  readonly #maxBatch: number;
  readonly #flushMs: number;
  readonly #writeTimeoutMs: number;
  readonly #defer: (write: () => void) => void;
  readonly #open = new Map<string, RunTraceBuilder>();
  /**
   * Runs that finished and wait for their write, by run id: the answer's usage is priced after the run
   * (`usage_recorded`), and still reaches the trace while it waits. Bounded like the queue it mirrors.
   */
  readonly #awaitingWrite = new Map<string, RunTraceBuilder>();
  /** Finished traces in finishing order; `#head` is the first not yet taken (a ring without shifting). */
  #queue: (RunTraceV1 | undefined)[] = [];
  #head = 0;
  #scheduled = false;
  #cancelTimer: (() => void) | undefined;
  #writing: Promise<void> | undefined;
  #written = 0;
  #dropped = 0;
  #warned = false;

  constructor(options: TraceRecorderOptions) {
    this.#options = options;
    this.#maxQueued = Math.max(1, options.maxQueued ?? DEFAULT_MAX_QUEUED_TRACES);
    this.#maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_TRACE_BATCH);
    this.#flushMs = Math.max(0, options.flushMs ?? DEFAULT_TRACE_FLUSH_MS);
    this.#writeTimeoutMs = Math.max(1, options.writeTimeoutMs ?? DEFAULT_TRACE_WRITE_TIMEOUT_MS);
    this.#defer = options.defer ?? ((write) => void setImmediate(write));
  }

  readonly onEvent = (event: DetourEvent): void => {
    if (!TRACED_EVENT_TYPES.has(event.type) || !("runId" in event) || event.runId === null) return;
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
    const builder = this.#open.get(event.runId) ?? (event.type === "usage_recorded" ? this.#awaitingWrite.get(event.runId) : undefined);
    if (!builder) return;
    builder.observe(event, at);
    if (event.type !== "run_finished") return;
    this.#open.delete(event.runId);
    const trace = builder.finish();
    if (!trace) return;
    if (this.#awaitingWrite.size >= this.#maxQueued) {
      const oldest = this.#awaitingWrite.keys().next().value;
      if (oldest !== undefined) this.#awaitingWrite.delete(oldest);
    }
    this.#awaitingWrite.set(event.runId, builder);
    this.#enqueue(trace);
  };

  stats(): TraceWriteStats {
    return { written: this.#written, dropped: this.#dropped, queued: this.#queued() };
  }

  /** Writes everything queued and waits for it (close, reads, tests). */
  async flush(): Promise<void> {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    for (;;) {
      if (this.#writing) await this.#writing;
      else if (this.#queued() > 0) await this.#startWrite();
      else return;
    }
  }

  #queued(): number {
    return this.#queue.length - this.#head;
  }

  #enqueue(trace: RunTraceV1): void {
    if (this.#queued() >= this.#maxQueued) {
      this.#queue[this.#head] = undefined;
      this.#head += 1;
      this.#dropped += 1;
    }
    this.#queue.push(trace);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing) return;
    if (this.#flushMs > 0 && this.#queued() < this.#maxBatch) {
      // Not a full batch yet: wait for more runs, at most flushMs.
      this.#cancelTimer ??= this.#options.clock.setTimer(this.#flushMs, () => {
        this.#cancelTimer = undefined;
        this.#writeSoon();
      });
      return;
    }
    this.#writeSoon();
  }

  /** The write, after the current turn of the event loop: the answer being sent goes out first. */
  #writeSoon(): void {
    if (this.#scheduled || this.#writing) return;
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#scheduled = true;
    this.#defer(() => {
      this.#scheduled = false;
      if (!this.#writing && this.#queued() > 0) void this.#startWrite();
    });
  }

  #take(): RunTraceV1[] {
    const end = Math.min(this.#queue.length, this.#head + this.#maxBatch);
    const batch = this.#queue.slice(this.#head, end) as RunTraceV1[];
    this.#head = end;
    // Taken for the write: later usage no longer reaches these traces.
    for (const trace of batch) this.#awaitingWrite.delete(trace.runId);
    // Compact once the taken part dominates, so the array does not grow for ever.
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return batch;
  }

  #startWrite(): Promise<void> {
    const batch = this.#take();
    const write = this.#write(batch).finally(() => {
      this.#writing = undefined;
      // Runs that finished during the write go in the next batch.
      if (this.#queued() > 0) this.#schedule();
    });
    this.#writing = write;
    return write;
  }

  async #write(batch: RunTraceV1[]): Promise<void> {
    const byAgent = new Map<string, RunTraceV1[]>();
    for (const trace of batch) {
      const traces = byAgent.get(trace.agentId);
      if (traces) traces.push(trace);
      else byAgent.set(trace.agentId, [trace]);
    }
    for (const [agentId, traces] of byAgent) {
      let cancelTimeout: (() => void) | undefined;
      try {
        const write = (async () => (await this.#options.storeFor(agentId)).appendMany(traces, this.#options.clock.now()))();
        const timedOut = new Promise<never>((_, reject) => {
          cancelTimeout = this.#options.clock.setTimer(this.#writeTimeoutMs, () =>
            reject(new Error(`the trace store did not answer within ${this.#writeTimeoutMs} ms`)),
          );
        });
        // A write that fails after its timeout is already counted: its late rejection is not a second failure.
        write.catch(() => {});
        await Promise.race([write, timedOut]);
        this.#written += traces.length;
      } catch (error) {
        this.#dropped += traces.length;
        this.#warnOnce(error);
      } finally {
        cancelTimeout?.();
      }
    }
  }

  #warnOnce(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#options.logger.log("warn", "Run traces could not be written; runs still answer, but are not traced", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
