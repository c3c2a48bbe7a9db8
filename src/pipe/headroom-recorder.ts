/**
 * R-PO-7: turns every upstream response's headers into headroom readings and keeps them in the agent's
 * store. Parsing is synchronous and cheap (a table of header names); the store write is started and not
 * awaited, so it stays off the response's critical path. A write the store refuses is logged, never thrown
 * into the request: readings are restated by the provider's next answer. The same readings (parsed once) go
 * to the event hub as `headroom_read`, so the run's trace (R-OB-4) shows what each attempt saw.
 */
import { readHeadroom } from "../core/headroom/header-readers.js";
import { traceHeadroomReadings } from "../core/run-trace.js";
import type { Clock } from "../ports/clock.js";
import type { EventSink, Logger } from "../ports/events.js";
import type { ProviderCallContext } from "../ports/provider.js";
import type { StateStore } from "../ports/state-store.js";
import type { AttemptContext } from "../runner/attempt.js";

export type UpstreamHeadersHook = NonNullable<ProviderCallContext["onUpstreamHeaders"]>;

/** Gives the hook for one attempt, or undefined when there is nothing to record (a keyless provider). */
export type HeadroomRecorder = (agentId: string | undefined, attempt: AttemptContext) => UpstreamHeadersHook | undefined;

export function createHeadroomRecorder(options: {
  store: (agentId: string | undefined) => Promise<StateStore>;
  clock: Clock;
  logger?: Logger;
  /** Where `headroom_read` goes (run traces); without it readings are only kept in the store. */
  events?: EventSink;
  /** The agent named in events when the caller names none. */
  defaultAgentId?: string;
}): HeadroomRecorder {
  const { clock, logger, events } = options;
  return (agentId, attempt) => {
    const profileId = attempt.profileId;
    if (profileId === undefined) return undefined;
    return (_status, headers) => {
      try {
        const now = clock.now();
        const readings = readHeadroom(headers, { now, model: attempt.model });
        if (readings.length === 0) return;
        void options
          .store(agentId)
          .then((store) => store.recordHeadroom(profileId, readings, now))
          .catch((error: unknown) =>
            logger?.log("warn", "Could not keep a headroom reading; the next answer restates it", {
              profileId,
              provider: attempt.provider,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
        events?.emit({
          type: "headroom_read",
          runId: attempt.runId,
          agentId: agentId ?? options.defaultAgentId ?? "main",
          provider: attempt.provider,
          model: attempt.model,
          profileId,
          readings: traceHeadroomReadings(readings),
        });
      } catch (error) {
        // The hook must never throw into the provider's response handling.
        logger?.log("warn", "Could not read rate-limit headers", {
          profileId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    };
  };
}
