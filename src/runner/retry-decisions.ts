/**
 * The auth-profile runner's decisions after a failed attempt, as pure functions of the policy, the settings,
 * the Random and what happened so far in the run:
 *  - retry the same profile first? (R-RN-4 timeout / server-error gate with jittered pause; R-RN-6 short
 *    stated wait with a jitter, unless the stated time is no longer trusted (R-CD-6) while a fallback exists)
 *  - rotate to the next profile or fail the candidate, and after which pause? (R-RN-3)
 */
import type { ReasonPolicy } from "../core/reasons.js";
import type { Classification, CooldownSettings } from "../core/types.js";
import type { Random } from "../ports/random.js";
import type { ModelFailoverSettings } from "./runner-deps.js";

export type SameProfileRetry =
  /** R-RN-4: the same profile again after a jittered pause, nothing recorded. */
  | { kind: "gate_retry"; retry: number; maxRetries: number; delayMs: number }
  /** R-RN-6: the stated wait (plus a jitter when there is no fallback), then the same profile once more. */
  | { kind: "short_wait"; waitMs: number }
  /** `retriesExhausted`: the retry gate was open and is now used up (its retry count). */
  | { kind: "none"; retriesExhausted?: number };

export function decideSameProfileRetry(input: {
  policy: ReasonPolicy;
  classification: Classification;
  now: number;
  /** Retry-gate retries this profile already had for this reason in this run. */
  gateRetriesUsed: number;
  modelFailover: ModelFailoverSettings;
  random: Random;
  /** Profiles after this one in the run's list: a short wait only makes sense on the last one. */
  laterProfiles: number;
  alreadyShortWaited: boolean;
  /**
   * R-CD-6 trust-once: false when the profile's previous stated reset of this reason just ran out and it
   * refused again; such a time is not waited out (R-RN-6), the failure gets the ladder step instead.
   */
  statedResetTrusted: boolean;
  /**
   * A later candidate of the chain could answer instead. Trust-once only matters then: with nowhere else to
   * go, a short stated wait is always waited out (R-FB-9, never less available than the provider itself).
   */
  hasFallback: boolean;
}): SameProfileRetry {
  const { policy, modelFailover } = input;
  if (policy.retryGateKey) {
    const allowed = modelFailover[policy.retryGateKey];
    if (input.gateRetriesUsed < allowed) {
      return {
        kind: "gate_retry",
        retry: input.gateRetriesUsed + 1,
        maxRetries: allowed,
        delayMs: jitteredDelayMs(modelFailover.retryBackoffMs, input.random),
      };
    }
    return allowed > 0 ? { kind: "none", retriesExhausted: allowed } : { kind: "none" };
  }
  const waitMs = statedWaitMs(input.classification, input.now);
  const limitMs = modelFailover.shortWaitSeconds * 1000;
  if (
    policy.shortWaitEligible &&
    (input.statedResetTrusted || !input.hasFallback) &&
    input.laterProfiles === 0 &&
    !input.alreadyShortWaited &&
    waitMs !== undefined &&
    waitMs > 0 &&
    waitMs <= limitMs
  ) {
    // Jittered only with nowhere else to go: then concurrent requests wait for the same moment too. With a
    // fallback they go there instead, and a jitter would only leave the profile open, unblocked and untried.
    const jitterMs = input.hasFallback ? 0 : statedWaitJitterMs(waitMs, input.random);
    return { kind: "short_wait", waitMs: waitMs + jitterMs };
  }
  return { kind: "none" };
}

export type RotationDecision = { kind: "rotate" | "fail"; pauseMs: number };

export function decideRotation(input: {
  policy: ReasonPolicy;
  hasFallback: boolean;
  hasNextProfile: boolean;
  /** Rotations already made in this candidate for this reason. */
  rotationsDone: number;
  cooldowns: CooldownSettings;
}): RotationDecision {
  const { policy, cooldowns } = input;
  const pauseMs = rotationBackoffMs(policy, cooldowns);
  // Out of profiles: the candidate fails; the pause precedes an escalation to the next model only.
  if (!input.hasNextProfile) return { kind: "fail", pauseMs: input.hasFallback ? pauseMs : 0 };
  // R-RN-3: caps apply only when a later model can take over; the failed profile is already marked.
  if (policy.rotationCapKey && input.hasFallback && input.rotationsDone + 1 > cooldowns[policy.rotationCapKey]) {
    return { kind: "fail", pauseMs };
  }
  return { kind: "rotate", pauseMs };
}

/** R-RN-3: the pause that follows a rotation for a capped reason, by the cap's config key. */
const ROTATION_BACKOFF_KEY: Readonly<Partial<Record<NonNullable<ReasonPolicy["rotationCapKey"]>, keyof CooldownSettings>>> = {
  overloadedProfileRotations: "overloadedBackoffMs",
};

export function rotationBackoffMs(policy: ReasonPolicy, cooldowns: CooldownSettings): number {
  const key = policy.rotationCapKey ? ROTATION_BACKOFF_KEY[policy.rotationCapKey] : undefined;
  const value = key ? cooldowns[key] : 0;
  return typeof value === "number" && value > 0 ? value : 0;
}

/** R-RN-4: uniform jitter from `retryBackoffMs`, drawn from the injected Random. */
export function jitteredDelayMs(range: readonly [number, number], random: Random): number {
  const low = Math.min(range[0], range[1]);
  const high = Math.max(range[0], range[1]);
  return Math.round(low + random.next() * (high - low));
}

/** The jitter added to a stated wait is at most this share of the wait … */
export const STATED_WAIT_JITTER_SHARE = 0.25;
/** … and never more than this. */
export const MAX_STATED_WAIT_JITTER_MS = 500;

/**
 * R-RN-6, R-RA-2: a wait for a stated reset (or a cooldown's end) is lengthened by a random part of itself, so
 * that the requests that waited for the same moment do not all reach the provider in the same millisecond.
 * Always added, never taken off: a request sent before the stated time would only be refused again.
 */
export function statedWaitJitterMs(waitMs: number, random: Random): number {
  const spread = Math.min(MAX_STATED_WAIT_JITTER_MS, Math.max(0, waitMs) * STATED_WAIT_JITTER_SHARE);
  return Math.round(random.next() * spread);
}

/** R-RN-6: the provider-stated wait, in ms, when it is known. */
export function statedWaitMs(classification: Classification, now: number): number | undefined {
  if (classification.resetAt !== undefined) return classification.resetAt - now;
  return classification.retryAfterMs;
}
