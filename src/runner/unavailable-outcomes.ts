/**
 * A candidate that cannot run any attempt: no usable credential at all, or every profile unusable for the
 * model (R-RN-5, with its exact log line emitted as a `no_available_profile` event).
 */
import { FailoverError } from "../core/errors.js";
import { explainUnavailable } from "../core/explain.js";
import type { AuthProfilesOutcome, AuthProfilesRunInput } from "./run-with-auth-profiles.js";
import type { RunnerDeps } from "./runner-deps.js";

export function noCredential<T>(input: AuthProfilesRunInput<T>): AuthProfilesOutcome<T> {
  const reasons = input.view.dropped.map((entry) => `${entry.id} (${entry.why})`).join(", ");
  const message =
    `No usable credential for ${input.view.provider}: ${reasons}. ` +
    `Add one with \`detour auth add ${input.view.provider}\` or fix the listed profiles.`;
  const error = new FailoverError(message, {
    reason: "auth",
    provider: input.candidate.provider,
    model: input.candidate.model,
  });
  return { kind: "failed", error, classification: { reason: "auth", preview: message }, allInCooldown: false };
}

/** R-RN-5: every profile is unusable; fail with the reason that explains it best. */
export function allUnusable<T>(deps: RunnerDeps, input: AuthProfilesRunInput<T>, ids: readonly string[]): AuthProfilesOutcome<T> {
  const now = deps.clock.now();
  const { reason, until } = explainUnavailable(
    ids.map((id) => ({ id, stats: input.view.stats[id] })),
    input.view.model,
    now,
  );
  deps.events.emit({
    type: "no_available_profile",
    runId: input.runId,
    agentId: deps.agentId,
    provider: input.view.provider,
    model: input.view.model,
    reason,
    until: until ?? null,
  });
  const message = `No available auth profile for ${input.view.provider} (all in cooldown or unavailable).`;
  const error = new FailoverError(message, {
    reason,
    provider: input.candidate.provider,
    model: input.candidate.model,
    resetAt: until,
    allInCooldown: true,
  });
  return {
    kind: "failed",
    error,
    classification: { reason, preview: message, ...(until !== undefined ? { resetAt: until } : {}) },
    allInCooldown: true,
  };
}
