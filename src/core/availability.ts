/**
 * Candidate availability (SPEC R-FB-3): when every profile of a candidate's provider is unusable for its
 * model, skip the candidate or probe it anyway.
 */
import { activeWindows, isUsable, type ActiveWindow } from "./cooldown.js";
import { explainUnavailable } from "./explain.js";
import { REASON_POLICY, type FailoverReason } from "./reasons.js";
import type { UsageStats } from "./types.js";

/** A billing-disabled primary is probed once its soonest expiry is this close (R-FB-3). */
export const BILLING_PROBE_MARGIN_MS = 2 * 60 * 1000;

export interface CandidateAvailabilityInput {
  provider: string;
  model: string;
  /** The first candidate of the run's chain. */
  isPrimary: boolean;
  now: number;
  /** The provider's profiles that have a usable credential (orderProfiles' ordered list) with their stats. */
  profiles: readonly { id: string; stats?: UsageStats }[];
  /** The 30 s per-(agent, provider) probe throttle is open (R-FB-4). */
  probeThrottleOpen: boolean;
  /** A non-primary transient probe of this provider already failed in this run. */
  transientProbeUsedThisRun: boolean;
}

export type CandidateAvailability =
  | { action: "attempt" }
  /**
   * Run the candidate despite the cooldown. `transient` says the probe is a transient-cooldown probe: when it
   * is a non-primary candidate's, its failure uses up the provider's one probe per run (unless the failure's
   * REASON_POLICY.keepsProbeSlot). A primary probe is governed by the throttle, which the runner marks.
   */
  | { action: "probe"; reason: FailoverReason; transient: boolean }
  | { action: "skip"; reason?: FailoverReason; message: string };

/**
 * How R-FB-3 treats a provider whose profiles are all unusable, by the reason that explains it. Reasons not
 * listed follow REASON_POLICY.transient (probe-able) or are plain cooldowns (skip).
 */
const UNAVAILABLE_CLASS: Partial<Record<FailoverReason, "credential_issue" | "billing">> = {
  auth: "credential_issue",
  auth_permanent: "credential_issue",
  billing: "billing",
};

function unavailableClass(reason: FailoverReason): "credential_issue" | "billing" | "transient" | "cooldown" {
  return UNAVAILABLE_CLASS[reason] ?? (REASON_POLICY[reason].transient ? "transient" : "cooldown");
}

/**
 * A profile worth probing for a transient cooldown: only the ladder keeps it out. A provider-stated reset
 * (R-CD-6) is a fact rather than a guess, and a disable is no transient state, so neither is probed.
 */
function onlyLadderCooldown(stats: UsageStats | undefined, model: string, now: number): boolean {
  return activeWindows(stats, model, now).every((window) => window.kind === "cooldown");
}

/**
 * R-CD-4 widens a model-scoped window when another model fails inside it and R-CD-2 keeps the latest reason, so
 * a sibling's probe that failed with a reason blaming one model (model-scoped, not transient: model_not_found)
 * inside a transient cooldown leaves a profile-wide window carrying that reason. Such a window says nothing
 * about *this* model; read as a plain cooldown it would skip every later sibling although that probe failure
 * keeps the provider's probe slot (R-FB-3). Only a window naming this very model makes the reason this model's.
 */
function blamesAnotherModel(input: CandidateAvailabilityInput, reason: FailoverReason): boolean {
  const policy = REASON_POLICY[reason];
  if (!policy.modelScoped || policy.transient) return false;
  return input.profiles.every((profile) =>
    activeWindows(profile.stats, input.model, input.now).every((window) => window.reason !== reason || window.model === undefined),
  );
}

export function decideCandidateAvailability(input: CandidateAvailabilityInput): CandidateAvailability {
  const { provider, model, now } = input;
  // R-RN-1: a provider without profiles runs once without a credential.
  if (input.profiles.length === 0) return { action: "attempt" };
  if (input.profiles.some((profile) => isUsable(profile.stats, model, now))) return { action: "attempt" };

  const { reason, until } = explainUnavailable(input.profiles, model, now);
  const inCooldown = { action: "skip", reason, message: `Provider ${provider} is in cooldown` } as const;

  switch (blamesAnotherModel(input, reason) ? "transient" : unavailableClass(reason)) {
    case "credential_issue":
      return { action: "skip", reason, message: `Provider ${provider} has ${reason} issue (skipping all models)` };
    case "billing": {
      const nearExpiry = until !== undefined && until - now <= BILLING_PROBE_MARGIN_MS;
      if (input.isPrimary && input.probeThrottleOpen && nearExpiry) {
        return { action: "probe", reason, transient: false };
      }
      return { action: "skip", reason, message: `Provider ${provider} has ${reason} issue (skipping all models)` };
    }
    case "transient": {
      if (!input.profiles.some((profile) => onlyLadderCooldown(profile.stats, model, now))) return inCooldown;
      if (input.isPrimary) return input.probeThrottleOpen ? { action: "probe", reason, transient: true } : inCooldown;
      if (input.transientProbeUsedThisRun) {
        const message = `Provider ${provider} is in cooldown (probe already attempted this run)`;
        return { action: "skip", reason, message };
      }
      return { action: "probe", reason, transient: true };
    }
    case "cooldown":
      return inCooldown;
  }
}

/**
 * R-FB-9: when the only thing keeping a provider's profiles out are ladder cooldowns of transient reasons —
 * guesses, not a provider-stated reset (`blocked`), a disable or an auth/model failure — the soonest moment
 * one of those profiles would be tried again. Undefined when no profile is kept out by guesses alone.
 */
export function ladderCooldownRecovery(
  profiles: readonly { id: string; stats?: UsageStats }[],
  model: string,
  now: number,
): number | undefined {
  return soonestOpening(profiles, (stats) => {
    const windows = activeWindows(stats, model, now);
    const guessesOnly = windows.every((window) => window.kind === "cooldown" && REASON_POLICY[window.reason].transient);
    return guessesOnly ? lastEnd(windows) : undefined;
  });
}

/**
 * The soonest of the profiles' openings, where `openingOf` says when one profile opens (undefined: not by time
 * alone, or not kept out).
 */
function soonestOpening(
  profiles: readonly { stats?: UsageStats }[],
  openingOf: (stats: UsageStats | undefined) => number | undefined,
): number | undefined {
  let soonest: number | undefined;
  for (const { stats } of profiles) {
    const opening = openingOf(stats);
    if (opening !== undefined && (soonest === undefined || opening < soonest)) soonest = opening;
  }
  return soonest;
}

/** When the last of these windows ends; undefined for none. */
function lastEnd(windows: readonly ActiveWindow[]): number | undefined {
  return windows.length === 0 ? undefined : Math.max(...windows.map((window) => window.until));
}

/** R-FB-9: the candidate attempted anyway is the one whose ladder window ends soonest (the earlier one on a tie). */
export function pickLastResort(candidates: readonly { index: number; recovery?: number }[]): number | undefined {
  let best: { index: number; recovery: number } | undefined;
  for (const { index, recovery } of candidates) {
    if (recovery === undefined) continue;
    if (!best || recovery < best.recovery || (recovery === best.recovery && index < best.index)) best = { index, recovery };
  }
  return best?.index;
}

/**
 * The windows keeping a profile from `model` when every one of them is of a transient reason and none is a
 * disable: a provider-stated block (`blocked`, R-CD-6) and/or ladder guesses, all of which end by time alone.
 * Undefined when the profile is usable or anything else keeps it out.
 */
function transientWindowsOnly(stats: UsageStats | undefined, model: string, now: number): ActiveWindow[] | undefined {
  const windows = activeWindows(stats, model, now);
  if (windows.length === 0) return undefined;
  const transient = windows.every((window) => window.kind !== "disabled" && REASON_POLICY[window.reason].transient);
  return transient ? windows : undefined;
}

/**
 * R-FB-9 / R-RA-2: some profile of the provider is kept out of `model` only by transient windows — a live
 * provider-stated block of a transient reason, ladder cooldowns, or both — so waiting for the stated time is
 * enough to try it again. False when no profile is in that state (a disable, an auth or model failure).
 */
export function keptOutOnlyByTransientWindows(
  profiles: readonly { id: string; stats?: UsageStats }[],
  model: string,
  now: number,
): boolean {
  return profiles.some(({ stats }) => transientWindowsOnly(stats, model, now) !== undefined);
}

/**
 * R-RA-2 with R-FB-9: the soonest moment a profile kept out only by transient windows has nothing left but
 * guesses — its live provider-stated block runs out, and whatever ladder cooldown outlasts it (trust-once's
 * lengthening, R-CD-6) is a guess the last-resort attempt covers. Only profiles with a live stated block
 * count: one kept out by guesses alone is open to a last resort already (`ladderCooldownRecovery`).
 */
export function statedResetOpening(
  profiles: readonly { id: string; stats?: UsageStats }[],
  model: string,
  now: number,
): number | undefined {
  return soonestOpening(profiles, (stats) =>
    lastEnd(transientWindowsOnly(stats, model, now)?.filter((window) => window.kind === "blocked") ?? []),
  );
}
