/**
 * What the engine did for one request, gathered from its events (`detour.on`, SPEC §17): each upstream
 * attempt, each rotation between keys, each failure written to a profile, and each nearly spent profile
 * passed over before any call. The demo sends one request
 * at a time and the gateway runs in this process, so every event between `begin()` and `end()` belongs to
 * that request — except a fan-out, whose requests are told apart by their runs' sessions.
 */
import type { DetourEvent } from "../ports/events.js";
import type { UsageStats } from "../core/types.js";
import type { AttemptView } from "./demo-events.js";

export interface RecordedFailure {
  profileId: string;
  provider: string;
  reason: string;
  stats: UsageStats;
}

export interface RecordedRotation {
  provider: string;
  model: string;
  from: string;
  to: string;
  reason: string;
}

export type RecordedPassOver = Omit<Extract<DetourEvent, { type: "headroom_passed_over" }>, "type" | "runId" | "agentId" | "sessionId">;

export type RecordedHedge = Omit<Extract<DetourEvent, { type: "hedge" }>, "type" | "runId" | "agentId">;

/** One run of the engine seen while tracing (a fan-out traces several at once). */
export interface RecordedRun {
  sessionId: string | null;
  attempts: AttemptView[];
  /** The run waited in line for a seat (every account was full). */
  waitedForSeat: boolean;
}

export interface RequestTrace {
  /** The run of this request finished (a stream's settles just after its last frame). */
  finished?: boolean;
  attempts: AttemptView[];
  rotations: RecordedRotation[];
  failures: RecordedFailure[];
  passedOver: RecordedPassOver[];
  hedges: RecordedHedge[];
  /** Per run, by run id: for tracing requests sent at once. */
  runs: Map<string, RecordedRun>;
  /** Profiles at their seat limit passed over before a call. */
  seatPassOvers: number;
}

const emptyTrace = (): RequestTrace => ({
  attempts: [],
  rotations: [],
  failures: [],
  passedOver: [],
  hedges: [],
  runs: new Map(),
  seatPassOvers: 0,
});

type Subscribe = (type: "*", listener: (event: DetourEvent) => void) => () => void;

export class RequestTracer {
  #current: RequestTrace | undefined;
  readonly #unsubscribe: () => void;

  constructor(subscribe: Subscribe) {
    this.#unsubscribe = subscribe("*", (event) => this.#record(event));
  }

  begin(): void {
    this.#current = emptyTrace();
  }

  /** Resolves once the current request's run finished (or after a few turns of the event loop). */
  async settled(): Promise<void> {
    for (let turn = 0; turn < 200 && this.#current && !this.#current.finished; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  end(): RequestTrace {
    const trace = this.#current ?? emptyTrace();
    this.#current = undefined;
    return trace;
  }

  stop(): void {
    this.#unsubscribe();
  }

  #record(event: DetourEvent): void {
    const trace = this.#current;
    if (!trace) return;
    switch (event.type) {
      case "run_started":
        trace.runs.set(event.runId, { sessionId: event.sessionId, attempts: [], waitedForSeat: false });
        return;
      case "seat_queue_wait": {
        const run = trace.runs.get(event.runId);
        if (run) run.waitedForSeat = true;
        return;
      }
      case "profile_passed_over":
        trace.seatPassOvers += 1;
        return;
      case "attempt_finished": {
        const attempt: AttemptView = {
          provider: event.provider,
          model: event.model,
          profileId: event.profileId,
          outcome: event.outcome,
          reason: event.reason,
          status: event.status,
          ...(event.continuation !== undefined ? { continuation: event.continuation } : {}),
          ...(event.hedge ? { hedge: true as const } : {}),
        };
        trace.attempts.push(attempt);
        trace.runs.get(event.runId)?.attempts.push(attempt);
        return;
      }
      case "profile_rotated":
        trace.rotations.push({
          provider: event.provider,
          model: event.model,
          from: event.fromProfileId,
          to: event.toProfileId,
          reason: event.reason,
        });
        return;
      case "hedge": {
        const { type: _type, runId: _runId, agentId: _agentId, ...hedge } = event;
        trace.hedges.push(hedge);
        return;
      }
      case "run_finished":
        trace.finished = true;
        return;
      case "profile_failure_recorded":
        trace.failures.push({ profileId: event.profileId, provider: event.provider, reason: event.reason, stats: event.stats });
        return;
      case "headroom_passed_over": {
        const { type: _type, runId: _runId, agentId: _agentId, sessionId: _sessionId, ...passOver } = event;
        trace.passedOver.push(passOver);
        return;
      }
      default:
        return;
    }
  }
}
