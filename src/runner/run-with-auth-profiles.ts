/**
 * The auth-profile runner (SPEC §6): runs one candidate model across the profiles of its provider.
 * This file picks the profile list (R-RN-1, session pin R-PO-5/R-PO-6, R-FB-3 probe); profile-loop.ts walks it.
 * Pure sequencing — what each failure reason does comes from REASON_POLICY, time from the injected Clock,
 * jitter from the injected Random.
 */
import { activeWindows } from "../core/cooldown.js";
import type { AttemptRecord, LiveSessionModelSwitchError } from "../core/errors.js";
import { resolveSessionPin } from "../core/session-pin.js";
import type { Classification, ModelRef, SessionEntry } from "../core/types.js";
import type { AttemptFn, CommittedRun } from "./attempt.js";
import type { HedgeRace, Lane } from "./hedge-race.js";
import { emitHeadroomDecisions } from "./headroom-events.js";
import { tryProfiles } from "./profile-loop.js";
import type { ProviderView } from "./provider-view.js";
import type { RunGuard } from "./run-guard.js";
import type { RunnerDeps } from "./runner-deps.js";
import type { PassResult, StreamRunState } from "./run-state.js";
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
  /** R-RN-4: retry-gate retries (timeouts and server errors) per profile and reason, for the whole run. */
  timeoutRetries: Map<string, number>;
  /**
   * R-RN-6: the profiles whose short stated wait this run already waited out, so that a later pass of the same
   * run (after an R-RA-2 wait) retries at once instead of waiting again. Absent = per candidate run.
   */
  shortWaited?: Set<string | undefined>;
  /** R-TT-2: where a provider that cannot be reached is noted, so the run never waits for it. */
  unreachable?: Set<string>;
  /** R-ST-1: an attempt's stream reached the client on `profileId`: the run's outcome so far. */
  commit(profileId: string | undefined): Promise<CommittedRun>;
  /** R-ST-4: the run's stream, shared by every candidate (continuations made, the policy). */
  stream: StreamRunState;
  /** R-HG-1: profiles racing elsewhere in the run, never tried here. */
  excluded?: ReadonlySet<string>;
  /** R-HG-1: the run's races, when its attempts are raced. */
  hedge?: CandidateHedging<T>;
}

export interface CandidateHedging<T> {
  race: HedgeRace;
  lane: Lane;
  /**
   * What the run would do if the attempt on `profileId` failed now — the model's other profiles (when
   * `otherProfiles`), then the next candidates — as a function that starts it on a lane; undefined when there is
   * nothing to do next.
   */
  restAfter(
    profileId: string | undefined,
    otherProfiles: boolean,
  ): ((lane: Lane, signal: AbortSignal) => Promise<PassResult<T>>) | undefined;
  /** The request's input tokens, estimated: what an attempt aborted as a hedge loser is charged. */
  inputTokens(): number | undefined;
}

export type AuthProfilesOutcome<T> =
  | {
      kind: "succeeded";
      result: T;
      profileId?: string;
      /** R-GW-11: the answer is a refusal: returned, but counted as `content_filter`. */
      refused?: true;
    }
  | {
      kind: "failed";
      /** The error as thrown by the attempt (or the runner's own when no attempt could run). */
      error: unknown;
      classification: Classification;
      profileId?: string;
      allInCooldown: boolean;
      /** R-ST-4: a committed stream failed and may not be continued: the run ends with this failure. */
      endsRun?: boolean;
    }
  | { kind: "live_switch"; error: LiveSessionModelSwitchError; profileId?: string }
  | {
      /** R-PO-8: no usable profile had a free seat; `last` is an earlier failure of this candidate, if any. */
      kind: "seats_full";
      profileIds: string[];
      last?: Extract<AuthProfilesOutcome<T>, { kind: "failed" }>;
    }
  /**
   * R-HG-1: the candidate's attempt was raced and the rest of the run decided: `pass` is its outcome, `record`
   * this candidate's attempt (lost the race, or failed before first content while the hedge went on).
   */
  | { kind: "hedged"; pass: PassResult<T>; record: AttemptRecord; error: unknown; profileId?: string };

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

export async function runWithAuthProfiles<T>(deps: RunnerDeps, input: AuthProfilesRunInput<T>): Promise<AuthProfilesOutcome<T>> {
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
    if (input.excluded?.has(pinned)) return allUnusable(deps, input, [pinned]);
    // R-PO-6: a user pin never rotates away; if it cannot run, the candidate fails and the run moves on.
    if (view.usable.includes(pinned) || (input.probe && pinProbeable(view, pinned, deps.clock.now()))) {
      return tryProfiles(deps, input, [pinned], { strict: true, pinned: "user" });
    }
    return allUnusable(deps, input, [pinned]);
  }

  const excluded = input.excluded;
  const usable = excluded ? view.usable.filter((id) => !excluded.has(id)) : view.usable;
  const list = pinned !== undefined && usable.includes(pinned) ? [pinned, ...usable.filter((id) => id !== pinned)] : [...usable];
  if (list.length === 0) {
    const probeId = input.probe ? probeProfile(view, deps.clock.now()) : undefined;
    if (probeId !== undefined && excluded?.has(probeId)) return allUnusable(deps, input, view.ordered);
    if (probeId === undefined) return allUnusable(deps, input, view.ordered);
    list.push(probeId);
  }
  return tryProfiles(deps, input, list, { strict: false, pinned: pinned !== undefined ? "auto" : undefined, pinnedId: pinned });
}
