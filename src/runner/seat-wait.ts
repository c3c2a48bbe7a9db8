/**
 * R-PO-8: a pass over the chain found every usable profile of every candidate full. The run waits in the
 * process's line for a seat (first come, first served) and walks the chain again when one frees; a run that
 * finds none free again rejoins at the front with its first deadline. Past `gateway.queueTimeoutSeconds`,
 * or when the line already holds `gateway.queueMax`, it ends with `SeatsFullError` (429 with `Retry-After`).
 * A caller that leaves (the client hung up) leaves the line at once.
 *
 * A continuation (R-ST-4) waits for a client already reading the answer, whose stream is silent meanwhile: it
 * waits at most the stall budget (`gateway.streamStallSeconds`), then ends like a continuation that found no
 * candidate — the stream ends with its explicit error (R-ST-2) — rather than holding the client past the
 * silence a stall would have cut.
 */
import { SeatsFullError } from "../core/errors.js";
import { SEATS_FULL_RETRY_AFTER_MS } from "../core/seat-limit.js";
import type { RunState } from "./run-state.js";

/** A run's place in line across its passes. */
export interface SeatLine {
  joinedAt?: number;
  deadline?: number;
  /** The continuation the place was taken for: a continuation joins anew, with its own shorter deadline. */
  continuation?: number;
}

export async function waitForSeat<T>(state: RunState<T>, profileIds: readonly string[], line: SeatLine): Promise<void> {
  const { deps, guard, input } = state;
  const queue = deps.seats?.queue;
  const now = deps.clock.now();
  const full = (why: "timed_out" | "queue_full") =>
    new SeatsFullError({ profileIds, why, waitedMs: now - (line.joinedAt ?? now), retryAfterMs: SEATS_FULL_RETRY_AFTER_MS });
  if (!queue) throw full("queue_full");
  const continuation = state.stream.committed !== undefined ? state.stream.continuations : undefined;
  if (line.continuation !== continuation) {
    delete line.joinedAt;
    delete line.deadline;
    if (continuation === undefined) delete line.continuation;
    else line.continuation = continuation;
  }
  const rejoin = line.deadline !== undefined ? { deadline: line.deadline } : undefined;
  if (!rejoin) {
    line.joinedAt = now;
    const stallMs = continuation !== undefined ? deps.settings.streamStallMs : undefined;
    line.deadline = Math.min(queue.deadlineFromNow(), stallMs !== undefined ? now + stallMs : Infinity);
  }
  const before = queue.length;
  const waiting = guard.within((signal) =>
    queue.wait({ signal, profileIds, ...(rejoin ? { rejoin } : { deadline: line.deadline as number }) }),
  );
  // Told once, when the run joins the line (a rejoin after a failed retry keeps its place silently).
  if (!rejoin && queue.length > before) {
    deps.events.emit({
      type: "seat_queue_wait",
      runId: input.runId,
      agentId: deps.agentId,
      sessionId: input.sessionKey ?? null,
      profileIds: [...profileIds],
      queueLength: queue.length,
      deadline: line.deadline as number,
    });
  }
  const outcome = await waiting;
  if (outcome === "woken") return;
  if (outcome === "left") {
    guard.throwIfStopped();
    throw full("timed_out");
  }
  const waitedMs = deps.clock.now() - (line.joinedAt ?? now);
  throw new SeatsFullError({
    profileIds,
    why: outcome === "full" && !rejoin ? "queue_full" : "timed_out",
    waitedMs,
    retryAfterMs: SEATS_FULL_RETRY_AFTER_MS,
  });
}
