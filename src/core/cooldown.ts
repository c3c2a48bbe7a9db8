/**
 * Usage-stats math (SPEC §5, R-PO-4): how a recorded failure, a success or a manual reset changes one
 * profile's routing state, and whether that state makes the profile unusable for a model right now.
 * Pure: every function returns a new object and never touches its input.
 */
import { REASON_POLICY, type FailoverReason } from "./reasons.js";
import type { CooldownSettings, UsageStats } from "./types.js";

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** A provider-stated reset further away than this is treated as this far away (R-CD-6). */
export const MAX_STATED_BLOCK_MS = 7 * 24 * HOUR_MS;

/** The documented ladders (R-CF-3); used only if a caller hands in an empty ladder. */
const DEFAULT_LADDER_SECONDS = [30, 60, 300] as const;
const DEFAULT_TIMEOUT_LADDER_SECONDS = [10, 20, 40, 80, 160, 300] as const;

export interface RecordFailureParams {
  reason: FailoverReason;
  provider: string;
  /** The model the failing attempt used; decides the window's model scope (R-CD-4). */
  model?: string;
  now: number;
  /** Absolute provider-stated reset (R-EC-6); replaces the ladder when it lies in the future (R-CD-6). */
  resetAt?: number;
  cooldowns: CooldownSettings;
  /**
   * When the failing attempt started (R-CD-1: one incident, one step). An attempt that started before the
   * profile's current window was opened is the same incident: it is counted but moves no window.
   * Absent = a new incident.
   */
  attemptStartedAt?: number;
  /**
   * The attempt ran right after the runner waited out a stated reset of this reason on this profile
   * (R-RN-6), so its failure comes right after a stated reset ran out (R-CD-6 trust-once).
   */
  afterStatedWait?: boolean;
}

/** One window that currently keeps a profile from being used. */
export interface ActiveWindow {
  kind: "disabled" | "blocked" | "cooldown";
  until: number;
  reason: FailoverReason;
  /** Set when the window only blocks this model. */
  model?: string;
}

type DisabledReason = NonNullable<UsageStats["disabledReason"]>;

/**
 * Backoff of the disabled lane (R-CD-3), per reason: base step and cap in ms.
 * Billing's base may differ per provider (`billingBackoffHoursByProvider`).
 */
const DISABLE_BACKOFF: Readonly<Record<DisabledReason, (config: CooldownSettings, provider: string) => { baseMs: number; maxMs: number }>> =
  {
    billing: (config, provider) => ({
      baseMs: (config.billingBackoffHoursByProvider[provider] ?? config.billingBackoffHours) * HOUR_MS,
      maxMs: config.billingMaxHours * HOUR_MS,
    }),
    auth_permanent: (config) => ({
      baseMs: config.authPermanentBackoffMinutes * MINUTE_MS,
      maxMs: config.authPermanentMaxMinutes * MINUTE_MS,
    }),
  };

function isDisabledReason(reason: FailoverReason): reason is DisabledReason {
  return Object.hasOwn(DISABLE_BACKOFF, reason);
}

/**
 * Which ladder a cooldown-lane reason climbs and which counter indexes it (R-CD-2). Timeouts have their
 * own, gentler ladder indexed by their own count so a slow network does not inherit the rate-limit steps.
 */
function cooldownLadder(
  reason: FailoverReason,
  stats: UsageStats,
  config: CooldownSettings,
): { ladderSeconds: readonly number[]; step: number } {
  if (reason === "timeout") {
    const ladder = config.timeoutLadderSeconds.length > 0 ? config.timeoutLadderSeconds : DEFAULT_TIMEOUT_LADDER_SECONDS;
    // R-CD-1: same-incident timeouts are counted in failureCounts.timeout without climbing; errorCount counts
    // incidents only, so it bounds the step and ten timeouts of one outage stay one step.
    const timeouts = stats.failureCounts?.timeout ?? 1;
    return { ladderSeconds: ladder, step: Math.min(timeouts, stats.errorCount ?? timeouts) };
  }
  const ladder = config.ladderSeconds.length > 0 ? config.ladderSeconds : DEFAULT_LADDER_SECONDS;
  return { ladderSeconds: ladder, step: stats.errorCount ?? 1 };
}

/** The n-th step (1-based) of a ladder; the last step repeats. */
function ladderStepMs(ladderSeconds: readonly number[], step: number): number {
  const index = Math.min(Math.max(step, 1), ladderSeconds.length) - 1;
  return (ladderSeconds[index] ?? 0) * SECOND_MS;
}

function isActive(until: number | undefined, now: number): until is number {
  return typeof until === "number" && until > now;
}

function copyStats(stats: UsageStats | undefined): UsageStats {
  if (!stats) return {};
  const copy: UsageStats = { ...stats };
  if (stats.failureCounts) copy.failureCounts = { ...stats.failureCounts };
  return copy;
}

/**
 * R-CD-1: counters restart only when the previous failure is older than the failure window, never
 * merely because a cooldown expired — that is what lets the ladder climb on repeated failures.
 */
function countFailure(stats: UsageStats, reason: FailoverReason, now: number, failureWindowHours: number): UsageStats {
  const stale = isStale(stats, now, failureWindowHours);
  const failureCounts = stale ? {} : { ...stats.failureCounts };
  failureCounts[reason] = (failureCounts[reason] ?? 0) + 1;
  return {
    ...stats,
    errorCount: (stale ? 0 : (stats.errorCount ?? 0)) + 1,
    failureCounts,
    lastFailureAt: now,
  };
}

/**
 * R-CD-4: a window keeps its model scope only while every failure inside it hit that same model with a
 * model-scoped reason; anything else widens it to the whole profile. A new window takes the failure's scope.
 */
function nextScope(windowActive: boolean, currentModel: string | undefined, failureScopeModel: string | undefined): string | undefined {
  if (!windowActive) return failureScopeModel;
  return currentModel !== undefined && currentModel === failureScopeModel ? currentModel : undefined;
}

function withScope(stats: UsageStats, key: "cooldownModel" | "blockedModel", model: string | undefined): UsageStats {
  const next = { ...stats };
  if (model === undefined) delete next[key];
  else next[key] = model;
  return next;
}

/** An active cooldown widens when a failure of another model (or of no model scope) lands inside it. */
function widenActiveCooldown(stats: UsageStats, failureScopeModel: string | undefined, now: number): UsageStats {
  if (!isActive(stats.cooldownUntil, now) || stats.cooldownModel === undefined) return stats;
  return withScope(stats, "cooldownModel", nextScope(true, stats.cooldownModel, failureScopeModel));
}

function applyCooldown(stats: UsageStats, p: RecordFailureParams, failureScopeModel: string | undefined): UsageStats {
  const active = isActive(stats.cooldownUntil, p.now);
  const { ladderSeconds, step } = cooldownLadder(p.reason, stats, p.cooldowns);
  const candidateUntil = p.now + ladderStepMs(ladderSeconds, step);
  const next: UsageStats = {
    ...stats,
    // R-CD-2: an active window is never shortened; a later failure may extend it.
    cooldownUntil: active ? Math.max(stats.cooldownUntil as number, candidateUntil) : candidateUntil,
    cooldownReason: p.reason,
  };
  return withScope(next, "cooldownModel", nextScope(active, stats.cooldownModel, failureScopeModel));
}

function applyDisable(stats: UsageStats, p: RecordFailureParams & { reason: DisabledReason }): UsageStats {
  const { baseMs, maxMs } = DISABLE_BACKOFF[p.reason](p.cooldowns, p.provider);
  const count = stats.failureCounts?.[p.reason] ?? 1;
  const durationMs = Math.min(maxMs, baseMs * 2 ** (count - 1));
  const candidateUntil = p.now + durationMs;
  return {
    ...stats,
    disabledUntil: isActive(stats.disabledUntil, p.now) ? Math.max(stats.disabledUntil, candidateUntil) : candidateUntil,
    disabledReason: p.reason,
  };
}

/** R-CD-6: a stated reset replaces the ladder, capped at seven days, and is never shortened. */
function applyStatedBlock(
  stats: UsageStats,
  p: RecordFailureParams,
  statedUntil: number,
  failureScopeModel: string | undefined,
): UsageStats {
  const active = isActive(stats.blockedUntil, p.now);
  const next: UsageStats = {
    ...stats,
    blockedUntil: active ? Math.max(stats.blockedUntil as number, statedUntil) : statedUntil,
    blockedReason: p.reason,
  };
  return withScope(next, "blockedModel", nextScope(active, stats.blockedModel, failureScopeModel));
}

function statedResetUntil(resetAt: number | undefined, now: number): number | undefined {
  if (typeof resetAt !== "number" || !Number.isFinite(resetAt) || resetAt <= now) return undefined;
  return Math.min(resetAt, now + MAX_STATED_BLOCK_MS);
}

function isStale(stats: UsageStats, now: number, failureWindowHours: number): boolean {
  return typeof stats.lastFailureAt === "number" && now - stats.lastFailureAt > failureWindowHours * HOUR_MS;
}

/** The window a failure of this reason would open or extend is open now (any model). */
function ownLaneWindowActive(stats: UsageStats, reason: FailoverReason, now: number): boolean {
  if (REASON_POLICY[reason].lane === "disabled") return isActive(stats.disabledUntil, now);
  return isActive(stats.cooldownUntil, now) || isActive(stats.blockedUntil, now);
}

/**
 * R-CD-1: the attempt started before the profile's current window was opened (`lastFailureAt` dates the
 * opening: same-incident failures leave it alone), so its failure is the outage already on record.
 */
function isSameIncident(stats: UsageStats, p: RecordFailureParams): boolean {
  if (p.attemptStartedAt === undefined || typeof stats.lastFailureAt !== "number") return false;
  if (p.attemptStartedAt >= stats.lastFailureAt) return false;
  return ownLaneWindowActive(stats, p.reason, p.now);
}

/** R-CD-1 + R-CD-4: counted in failureCounts, no ladder step, no extension — but another model still widens. */
function countSameIncident(stats: UsageStats, p: RecordFailureParams, failureScopeModel: string | undefined): UsageStats {
  const failureCounts = { ...stats.failureCounts };
  failureCounts[p.reason] = (failureCounts[p.reason] ?? 0) + 1;
  let next: UsageStats = widenActiveCooldown({ ...stats, failureCounts }, failureScopeModel, p.now);
  if (isActive(next.blockedUntil, p.now) && next.blockedModel !== undefined) {
    next = withScope(next, "blockedModel", nextScope(true, next.blockedModel, failureScopeModel));
  }
  return next;
}

function blockCovers(stats: UsageStats, model: string | undefined, now: number): boolean {
  return isActive(stats.blockedUntil, now) && coversModel(stats.blockedModel, model);
}

export interface StatedResetTrustInput {
  reason: FailoverReason;
  model?: string;
  now: number;
  cooldowns: CooldownSettings;
}

/**
 * R-CD-6 trust-once, read from the stored counters: the profile already failed with this reason inside the
 * failure window, no stated reset covers the model any more, and the failure comes sooner after the last one
 * than the next ladder step — the provider's stated time ran out and it refused again. Such a failure's window
 * is the longer of the new stated time and the ladder step, and it is not waited out (R-RN-6).
 */
export function isStatedResetTrusted(stats: UsageStats | undefined, input: StatedResetTrustInput): boolean {
  const base = stats ?? {};
  if (REASON_POLICY[input.reason].lane !== "cooldown") return true;
  if (blockCovers(base, input.model, input.now)) return true;
  if ((base.failureCounts?.[input.reason] ?? 0) < 1 || typeof base.lastFailureAt !== "number") return true;
  if (isStale(base, input.now, input.cooldowns.failureWindowHours)) return true;
  const counted = countFailure(base, input.reason, input.now, input.cooldowns.failureWindowHours);
  const { ladderSeconds, step } = cooldownLadder(input.reason, counted, input.cooldowns);
  return input.now - base.lastFailureAt >= ladderStepMs(ladderSeconds, step);
}

/** R-CD-6: a stated reset after one that ran out gets the ladder step when that is longer than the stated time. */
function applyDistrustedReset(
  blocked: UsageStats,
  p: RecordFailureParams,
  statedUntil: number,
  failureScopeModel: string | undefined,
): UsageStats {
  const withLadder = applyCooldown(blocked, p, failureScopeModel);
  return (withLadder.cooldownUntil ?? 0) > statedUntil ? withLadder : blocked;
}

/**
 * Record one failure on a profile's stats (R-CD-1…R-CD-6). Reasons that are not recorded on the profile
 * (R-CD-5: format, context overflow, content filter, session expired) return an unchanged copy.
 */
export function recordFailure(stats: UsageStats | undefined, p: RecordFailureParams): UsageStats {
  const policy = REASON_POLICY[p.reason];
  const base = copyStats(stats);
  if (!policy.recordOnProfile || policy.lane === "none") return base;

  const failureScopeModel = policy.modelScoped && p.model ? p.model : undefined;
  if (isSameIncident(base, p)) return countSameIncident(base, p, failureScopeModel);
  const trusted = !p.afterStatedWait && isStatedResetTrusted(base, p);
  const counted = countFailure(base, p.reason, p.now, p.cooldowns.failureWindowHours);

  const statedUntil = statedResetUntil(p.resetAt, p.now);
  if (statedUntil !== undefined) {
    const blocked = applyStatedBlock(widenActiveCooldown(counted, failureScopeModel, p.now), p, statedUntil, failureScopeModel);
    if (trusted || policy.lane !== "cooldown") return blocked;
    return applyDistrustedReset(blocked, p, statedUntil, failureScopeModel);
  }
  if (policy.lane === "disabled" && isDisabledReason(p.reason)) {
    return applyDisable(widenActiveCooldown(counted, failureScopeModel, p.now), { ...p, reason: p.reason });
  }
  return applyCooldown(counted, p, failureScopeModel);
}

/** R-CD-7: a success forgets every failure and window of the profile. */
export function recordSuccess(stats: UsageStats | undefined, p: { now: number }): UsageStats {
  const next: UsageStats = { ...copyStats(stats), lastUsed: p.now, errorCount: 0, failureCounts: {} };
  for (const key of WINDOW_FIELDS) delete next[key];
  return next;
}

/**
 * True when `recordSuccess` would change nothing but `lastUsed` (a healthy profile's success): what the
 * stores' success fast path checks, without serialising the stats twice.
 */
export function successChangesOnlyLastUsed(stats: UsageStats | undefined): boolean {
  if (stats === undefined || stats.errorCount !== 0 || stats.failureCounts === undefined) return false;
  for (const _reason in stats.failureCounts) return false;
  for (const key of WINDOW_FIELDS) if (stats[key] !== undefined) return false;
  return true;
}

/** R-CD-7: a pinned profile reused only moves `lastUsed`. */
export function markUsed(stats: UsageStats | undefined, p: { now: number }): UsageStats {
  return { ...copyStats(stats), lastUsed: p.now };
}

/** R-CD-8: what `detour auth reset <profileId>` leaves behind — nothing. */
export function resetUsageStats(): UsageStats {
  return {};
}

const WINDOW_LANES = [
  { until: "cooldownUntil", fields: ["cooldownUntil", "cooldownReason", "cooldownModel"] },
  { until: "disabledUntil", fields: ["disabledUntil", "disabledReason"] },
  { until: "blockedUntil", fields: ["blockedUntil", "blockedReason", "blockedModel"] },
] as const satisfies readonly { until: keyof UsageStats; fields: readonly (keyof UsageStats)[] }[];

const WINDOW_FIELDS = WINDOW_LANES.flatMap((lane) => lane.fields);

/**
 * R-PO-4: drop windows that have ended, with their reason and model fields. Counters stay: they reset only
 * through the failure window (R-CD-1). Returns the input object itself when nothing had ended, so callers
 * can tell "changed" by identity; a changed result is always a fresh object.
 */
export function clearExpired(stats: UsageStats, now: number): UsageStats {
  let next: UsageStats | undefined;
  for (const lane of WINDOW_LANES) {
    if (isActive(stats[lane.until], now)) continue;
    if (!lane.fields.some((field) => stats[field] !== undefined)) continue;
    next ??= copyStats(stats);
    for (const field of lane.fields) delete next[field];
  }
  return next ?? stats;
}

/** A window scoped to a model blocks only that model; asked about no particular model, it blocks. */
function coversModel(windowModel: string | undefined, model: string | undefined): boolean {
  return windowModel === undefined || model === undefined || windowModel === model;
}

/**
 * The windows that keep the profile from serving `model` at `now`. Reasons missing from legacy rows read as
 * the lane's natural reason: an unexplained cooldown is treated as unknown (transient), a disable as billing.
 */
export function activeWindows(stats: UsageStats | undefined, model: string | undefined, now: number): ActiveWindow[] {
  if (!stats) return [];
  const windows: ActiveWindow[] = [];
  if (isActive(stats.disabledUntil, now)) {
    windows.push({ kind: "disabled", until: stats.disabledUntil, reason: stats.disabledReason ?? "billing" });
  }
  if (isActive(stats.blockedUntil, now) && coversModel(stats.blockedModel, model)) {
    const reason = stats.blockedReason ?? "rate_limit";
    windows.push(scoped({ kind: "blocked", until: stats.blockedUntil, reason }, stats.blockedModel));
  }
  if (isActive(stats.cooldownUntil, now) && coversModel(stats.cooldownModel, model)) {
    const reason = stats.cooldownReason ?? "unclassified";
    windows.push(scoped({ kind: "cooldown", until: stats.cooldownUntil, reason }, stats.cooldownModel));
  }
  return windows;
}

function scoped(window: ActiveWindow, model: string | undefined): ActiveWindow {
  return model === undefined ? window : { ...window, model };
}

/** Usable for `model` (or, with no model, for every model) at `now`. */
export function isUsable(stats: UsageStats | undefined, model: string | undefined, now: number): boolean {
  return activeWindows(stats, model, now).length === 0;
}

/** The window that ends last is the one that keeps the profile unusable; ties go to the weightier reason. */
function dominantWindow(windows: readonly ActiveWindow[]): ActiveWindow | undefined {
  let best: ActiveWindow | undefined;
  for (const window of windows) {
    if (
      !best ||
      window.until > best.until ||
      (window.until === best.until && REASON_POLICY[window.reason].explainRank > REASON_POLICY[best.reason].explainRank)
    ) {
      best = window;
    }
  }
  return best;
}

/** When the profile becomes usable for `model` again: every blocking window must have ended. */
export function unusableUntil(stats: UsageStats | undefined, model: string | undefined, now: number): number | undefined {
  return dominantWindow(activeWindows(stats, model, now))?.until;
}

/** Why the profile is unusable for `model`: the reason of the window that lasts longest. */
export function unusableReason(stats: UsageStats | undefined, model: string | undefined, now: number): FailoverReason | undefined {
  return dominantWindow(activeWindows(stats, model, now))?.reason;
}
