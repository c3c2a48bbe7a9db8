/**
 * The auth-profile runner (SPEC §6): runs one candidate model across the profiles of its provider.
 * Pure sequencing — what each failure reason does comes from REASON_POLICY, time from the injected Clock,
 * jitter from the injected Random.
 */
import { activeWindows } from "../core/cooldown.js";
import { LiveSessionModelSwitchError } from "../core/errors.js";
import { REASON_POLICY } from "../core/reasons.js";
import { resolveSessionPin } from "../core/session-pin.js";
import type { Classification, Credential, ModelRef, SessionEntry } from "../core/types.js";
import type { AttemptFn, AttemptProfile } from "./attempt.js";
import { classifyAttemptError } from "./failure.js";
import { emitHeadroomDecisions } from "./headroom-events.js";
import { recordProfileFailure } from "./profile-failures.js";
import type { ProviderView } from "./provider-view.js";
import { decideRotation, decideSameProfileRetry } from "./retry-decisions.js";
import type { RunGuard } from "./run-guard.js";
import type { RunnerDeps } from "./runner-deps.js";
import { emitSessionOverride, type OverrideTransaction } from "./session-overrides.js";
import { allUnusable, noCredential } from "./unavailable-outcomes.js";

export interface AuthProfilesRunInput<T> {
  runId: string;
  candidate: ModelRef;
  /** 0-based position in the chain. */
  candidateIndex: number;
  view: ProviderView;
  sessionKey?: string;
  /** The session as read just before this candidate. */
  session?: SessionEntry;
  /** Present when the run may write the session; pin writes go through it so a failure rolls them back. */
  transaction?: OverrideTransaction;
  /** R-RN-3: rotation caps apply only when a later model can take over. */
  hasFallback: boolean;
  /** R-FB-3: the candidate runs although every profile is cooling down. */
  probe: boolean;
  attempt: AttemptFn<T>;
  /** Overrides the provider's attempt watchdog. */
  attemptTimeoutMs?: number;
  guard: RunGuard;
  /** R-RN-4: timeout retries per profile for the whole run. */
  timeoutRetries: Map<string, number>;
}

export type AuthProfilesOutcome<T> =
  | { kind: "succeeded"; result: T; profileId?: string }
  | {
      kind: "failed";
      /** The error as thrown by the attempt (or the runner's own when no attempt could run). */
      error: unknown;
      classification: Classification;
      profileId?: string;
      allInCooldown: boolean;
    }
  | { kind: "live_switch"; error: LiveSessionModelSwitchError; profileId?: string };

/** Stands in for the profile id of a provider that runs without a credential (R-RN-1). */
const KEYLESS = "(keyless)";

function onlyLadderCooldown(view: ProviderView, id: string, now: number): boolean {
  return activeWindows(view.stats[id], view.model, now).every((window) => window.kind === "cooldown");
}

/** For a probe, prefer a profile kept out only by a ladder guess over a stated reset or a disable. */
function probeProfile(view: ProviderView, now: number): string | undefined {
  return view.unusable.find((id) => onlyLadderCooldown(view, id, now)) ?? view.unusable[0];
}

/**
 * R-FB-3 for a strict user pin: the provider-wide probe decision may rest on another profile's ladder guess;
 * the pin itself is probed only when it is no worse than the profile an unpinned probe would pick.
 */
function pinProbeable(view: ProviderView, pinned: string, now: number): boolean {
  const choice = probeProfile(view, now);
  if (choice === undefined || !view.unusable.includes(pinned)) return false;
  return onlyLadderCooldown(view, pinned, now) || !onlyLadderCooldown(view, choice, now);
}

export async function runWithAuthProfiles<T>(
  deps: RunnerDeps,
  input: AuthProfilesRunInput<T>,
): Promise<AuthProfilesOutcome<T>> {
  const { view } = input;
  if (view.keyless) return tryProfiles(deps, input, [undefined], { strict: false });
  if (view.ordered.length === 0) return noCredential(input);

  const pin = resolveSessionPin({
    session: input.session,
    provider: view.provider,
    ordered: view.ordered,
    usable: view.usable,
    profileProviders: view.profileProviders,
    nearlySpent: view.nearlySpent,
  });
  emitHeadroomDecisions(deps, input, view, pin);
  if (pin.write && input.transaction && input.sessionKey) {
    const values =
      pin.write === "clear"
        ? { authProfileOverride: undefined, authProfileOverrideSource: undefined, authProfileOverrideCompactionCount: undefined }
        : pin.write;
    const result = await input.transaction.write(input.session, values);
    emitSessionOverride(
      deps.events,
      { agentId: deps.agentId, runId: input.runId, sessionId: input.sessionKey },
      "auth_pin_written",
      result,
    );
  }

  const pinned = pin.pinnedProfileId;
  if (pin.strict && pinned !== undefined) {
    // R-PO-6: a user pin never rotates away; if it cannot run, the candidate fails and the run moves on.
    if (view.usable.includes(pinned) || (input.probe && pinProbeable(view, pinned, deps.clock.now()))) {
      return tryProfiles(deps, input, [pinned], { strict: true, pinned: "user" });
    }
    return allUnusable(deps, input, [pinned]);
  }

  const list = pinned !== undefined && view.usable.includes(pinned)
    ? [pinned, ...view.usable.filter((id) => id !== pinned)]
    : [...view.usable];
  if (list.length === 0) {
    const probeId = input.probe ? probeProfile(view, deps.clock.now()) : undefined;
    if (probeId === undefined) return allUnusable(deps, input, view.ordered);
    list.push(probeId);
  }
  return tryProfiles(deps, input, list, { strict: false, pinned: pinned !== undefined ? "auto" : undefined, pinnedId: pinned });
}

interface ListMode {
  strict: boolean;
  pinned?: "auto" | "user";
  pinnedId?: string;
}

/** Re-reads a later profile's stats: a concurrent run may have cooled it down since the order was made. */
async function stillUsable(deps: RunnerDeps, id: string, model: string): Promise<boolean> {
  const stats = await deps.store.getUsageStats(id);
  return activeWindows(stats, model, deps.clock.now()).length === 0;
}

async function tryProfiles<T>(
  deps: RunnerDeps,
  input: AuthProfilesRunInput<T>,
  list: readonly (string | undefined)[],
  mode: ListMode,
): Promise<AuthProfilesOutcome<T>> {
  const { candidate, guard } = input;
  const { settings } = deps;
  const rotations = new Map<string, number>();
  const shortWaited = new Set<string | undefined>();
  let last: Extract<AuthProfilesOutcome<T>, { kind: "failed" }> | undefined;

  for (let index = 0; index < list.length; index += 1) {
    const profileId = list[index];
    if (index > 0 && profileId !== undefined && !(await stillUsable(deps, profileId, candidate.model))) continue;

    const retryKey = profileId ?? KEYLESS;
    const profile: AttemptProfile | undefined =
      profileId === undefined
        ? undefined
        : {
            id: profileId,
            ...(mode.pinned && (mode.strict || profileId === mode.pinnedId) ? { pinned: mode.pinned } : {}),
          };

    // Same-profile retries (R-RN-4 timeout gate, R-RN-6 short wait) loop here.
    for (;;) {
      const startedAt = deps.clock.now();
      deps.events.emit({
        type: "attempt_started",
        runId: input.runId,
        agentId: deps.agentId,
        provider: candidate.provider,
        model: candidate.model,
        profileId: profileId ?? null,
      });
      const settlement = await guard.attempt(
        async (signal) => {
          const credential = await attemptCredential(deps, input.view, profileId, signal);
          return input.attempt({
            provider: candidate.provider,
            model: candidate.model,
            ...(profile ? { profile, profileId: profile.id } : {}),
            ...(credential ? { credential } : {}),
            signal,
            runId: input.runId,
            candidateIndex: input.candidateIndex + 1,
            probe: input.probe,
          });
        },
        input.attemptTimeoutMs ?? settings.attemptTimeoutMs(candidate.provider),
      );
      const finishedAt = deps.clock.now();

      if (settlement.kind === "ok") {
        emitAttemptFinished(deps, input, profileId, "succeeded", undefined, finishedAt - startedAt);
        input.timeoutRetries.delete(retryKey);
        if (profileId !== undefined) {
          await deps.store.recordSuccess(profileId, { provider: candidate.provider, now: finishedAt });
        }
        return { kind: "succeeded", result: settlement.value, profileId };
      }
      if (settlement.error instanceof LiveSessionModelSwitchError) {
        emitAttemptFinished(deps, input, profileId, "failed", undefined, finishedAt - startedAt);
        return { kind: "live_switch", error: settlement.error, profileId };
      }

      const classification = classifyAttemptError(settlement.error, candidate.provider, finishedAt);
      emitAttemptFinished(deps, input, profileId, "failed", classification, finishedAt - startedAt);
      const policy = REASON_POLICY[classification.reason];

      const retry = decideSameProfileRetry({
        policy,
        classification,
        now: finishedAt,
        timeoutRetriesUsed: input.timeoutRetries.get(retryKey) ?? 0,
        modelFailover: settings.modelFailover,
        random: deps.random,
        laterProfiles: list.length - index - 1,
        alreadyShortWaited: shortWaited.has(profileId),
      });
      const where = {
        runId: input.runId,
        agentId: deps.agentId,
        provider: candidate.provider,
        model: candidate.model,
        profileId: profileId ?? KEYLESS,
      };
      if (retry.kind === "timeout_retry") {
        input.timeoutRetries.set(retryKey, retry.retry);
        deps.events.emit({ type: "timeout_retry_scheduled", ...where, retry: retry.retry, maxRetries: retry.maxRetries, delayMs: retry.delayMs });
        await guard.sleep(retry.delayMs);
        continue;
      }
      if (retry.kind === "short_wait") {
        shortWaited.add(profileId);
        deps.events.emit({ type: "short_wait", ...where, reason: classification.reason, waitMs: retry.waitMs });
        await guard.sleep(retry.waitMs);
        continue;
      }
      if (retry.timeoutRetriesExhausted !== undefined) {
        deps.events.emit({ type: "timeout_retries_exhausted", ...where, maxRetries: retry.timeoutRetriesExhausted });
      }

      await recordProfileFailure(
        {
          store: deps.store,
          events: deps.events,
          cooldowns: settings.cooldowns,
          providerRecordsCooldowns: (provider) => settings.providerRecordsCooldowns(provider),
        },
        {
          agentId: deps.agentId,
          runId: input.runId,
          provider: candidate.provider,
          model: candidate.model,
          profileId,
          classification,
          now: finishedAt,
        },
      );
      last = { kind: "failed", error: settlement.error, classification, profileId, allInCooldown: false };
      if (!policy.rotateProfile || mode.strict) return last;

      const nextId = await nextUsableProfile(deps, list, index + 1, candidate.model);
      const rotationsDone = rotations.get(classification.reason) ?? 0;
      const rotation = decideRotation({
        policy,
        hasFallback: input.hasFallback,
        hasNextProfile: nextId !== undefined,
        rotationsDone,
        cooldowns: settings.cooldowns,
      });
      if (rotation.pauseMs > 0) await pause(deps, input, profileId, rotation.pauseMs);
      if (rotation.kind === "fail" || nextId === undefined) return last;
      rotations.set(classification.reason, rotationsDone + 1);
      if (profileId !== undefined) {
        deps.events.emit({
          type: "profile_rotated",
          runId: input.runId,
          agentId: deps.agentId,
          provider: candidate.provider,
          model: candidate.model,
          fromProfileId: profileId,
          toProfileId: nextId,
          reason: classification.reason,
        });
      }
      break;
    }
  }
  if (last) return last;
  // Every later profile cooled down meanwhile (concurrent runs) before any attempt ran.
  return allUnusable(deps, input, list.filter((id): id is string => id !== undefined));
}

/**
 * Resolved inside the attempt so that a refresh (R-AP-5) is bounded by the attempt's watchdog and its failure
 * is classified, recorded and rotated away from like any failed attempt.
 */
async function attemptCredential(
  deps: RunnerDeps,
  view: ProviderView,
  profileId: string | undefined,
  signal: AbortSignal,
): Promise<Credential | undefined> {
  const listed = profileId !== undefined ? view.credentials.get(profileId) : undefined;
  if (profileId === undefined || listed === undefined || !deps.profiles.credentialForAttempt) return listed;
  return deps.profiles.credentialForAttempt(profileId, listed, signal);
}

async function nextUsableProfile(
  deps: RunnerDeps,
  list: readonly (string | undefined)[],
  from: number,
  model: string,
): Promise<string | undefined> {
  for (let index = from; index < list.length; index += 1) {
    const id = list[index];
    if (id !== undefined && (await stillUsable(deps, id, model))) return id;
  }
  return undefined;
}

async function pause<T>(
  deps: RunnerDeps,
  input: AuthProfilesRunInput<T>,
  profileId: string | undefined,
  waitMs: number,
): Promise<void> {
  deps.events.emit({
    type: "overloaded_backoff",
    runId: input.runId,
    agentId: deps.agentId,
    provider: input.candidate.provider,
    model: input.candidate.model,
    profileId: profileId ?? KEYLESS,
    waitMs,
  });
  await input.guard.sleep(waitMs);
}

function emitAttemptFinished<T>(
  deps: RunnerDeps,
  input: AuthProfilesRunInput<T>,
  profileId: string | undefined,
  outcome: "succeeded" | "failed",
  classification: Classification | undefined,
  durationMs: number,
): void {
  deps.events.emit({
    type: "attempt_finished",
    runId: input.runId,
    agentId: deps.agentId,
    provider: input.candidate.provider,
    model: input.candidate.model,
    profileId: profileId ?? null,
    outcome,
    reason: classification?.reason ?? null,
    status: classification?.status ?? null,
    durationMs,
  });
}
