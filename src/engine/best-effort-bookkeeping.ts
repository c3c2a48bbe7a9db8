/**
 * Success bookkeeping on the request path is best effort (R-SB-5): when the store fails to record a
 * success or a use, the provider's answer still reaches the client. The failure becomes a
 * `state_bookkeeping_failed` event — a warning in the log and `detour_state_bookkeeping_failures_total` in
 * the gateway's metrics — instead of turning a valid answer into a 500, or leaving a committed stream and
 * its upstream connection hanging.
 *
 * Only the runner's view of the store is wrapped; failures, sessions and everything a user asks for keep
 * their errors.
 */
import type { UsageStats } from "../core/types.js";
import type { EventSink } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import type { DecisionSnapshot } from "../runner/decision-snapshot.js";

type BookkeepingOperation = "recordSuccess" | "markUsed";

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function withBestEffortBookkeeping(
  store: StateStore,
  input: { agentId: string; events: EventSink; snapshot?: DecisionSnapshot },
): StateStore {
  const snapshot = input.snapshot;
  const report = (operation: BookkeepingOperation, profileId: string, error: unknown) =>
    input.events.emit({ type: "state_bookkeeping_failed", agentId: input.agentId, operation, profileId, error: errorText(error) });

  const recordSuccess: StateStore["recordSuccess"] = async (profileId, params) => {
    try {
      // Stamped right around the call, before any await: the backends apply it synchronously, and what other
      // requests do meanwhile must not count as part of it (runner/decision-snapshot.ts).
      const before = snapshot?.stamp();
      const written = store.recordSuccess(profileId, params);
      snapshot?.noteSuccess(profileId, params.now, before, snapshot.stamp());
      return await written;
    } catch (error) {
      report("recordSuccess", profileId, error);
      // Nothing was written; the runner does not read the result, and an empty record claims nothing.
      const unknown: UsageStats = {};
      return unknown;
    }
  };
  const markUsed: StateStore["markUsed"] = async (profileId, now) => {
    try {
      const before = snapshot?.stamp();
      const written = store.markUsed(profileId, now);
      snapshot?.noteUsed(profileId, now, before, snapshot.stamp());
      await written;
    } catch (error) {
      report("markUsed", profileId, error);
    }
  };

  // A proxy rather than a delegating class: every other method, including ones added to the interface
  // later, reaches the store unchanged (bound to it, so backends' private fields keep working).
  // Bound once per method: the runner reaches the store several times per request.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === "recordSuccess") return recordSuccess;
      if (property === "markUsed") return markUsed;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      let method = bound.get(property);
      if (method === undefined || (method as { original?: unknown }).original !== value) {
        method = Object.assign((value as (...args: unknown[]) => unknown).bind(target), { original: value });
        bound.set(property, method);
      }
      return method;
    },
  });
}
