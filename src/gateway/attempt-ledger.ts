/**
 * Upstream calls per run, counted from the runner's `attempt_started` events, so `x-detour-attempts` also
 * counts key rotations inside one candidate (a run's outcome lists candidates only) and, for a stream, the
 * attempt whose answer is being committed (it finishes only when the stream ends, R-ST-5). An entry lives
 * from the run's first attempt until the gateway takes it for the answer's headers or the run fails; the map
 * is bounded for runs nobody asks about (library callers sharing the engine). Continuations made after the
 * headers went out (R-ST-4) are not counted here: they are in the decision log and the metrics.
 */
import type { DetourEvent } from "../ports/events.js";

const MAX_TRACKED_RUNS = 1024;

export class AttemptLedger {
  readonly #callsByRun = new Map<string, number>();

  observe(event: DetourEvent): void {
    if (event.type === "attempt_started") {
      const previous = this.#callsByRun.get(event.runId);
      if (previous === undefined && this.#callsByRun.size >= MAX_TRACKED_RUNS) {
        const oldest = this.#callsByRun.keys().next().value;
        if (oldest !== undefined) this.#callsByRun.delete(oldest);
      }
      this.#callsByRun.set(event.runId, (previous ?? 0) + 1);
    } else if (event.type === "run_finished" && (event.outcome === "failed" || event.outcome === "aborted")) {
      // A refusal (content_filter, R-GW-11) is still answered: its headers take the count like a success's.
      this.#callsByRun.delete(event.runId);
    }
  }

  /** The upstream calls the run made, forgotten once read; undefined when none were seen. */
  take(runId: string): number | undefined {
    const calls = this.#callsByRun.get(runId);
    this.#callsByRun.delete(runId);
    return calls;
  }

  get size(): number {
    return this.#callsByRun.size;
  }
}
