/**
 * One word per profile for the live view: is it ready, or why and until when is it not? Read from the
 * usage stats the gateway reports (R-AP-4), against the demo clock's now. A disable (billing, revoked key)
 * outranks a provider-stated block (Retry-After), which outranks a ladder cooldown — the most severe lane
 * is the one worth showing.
 */
import type { UsageStats } from "../core/types.js";

export type ProfileLane = "ready" | "cooldown" | "blocked" | "disabled";

export interface ProfileState {
  id: string;
  provider: string | null;
  lane: ProfileLane;
  reason?: string;
  /** Epoch ms (demo clock) when the lane ends. */
  until?: number;
  remainingMs?: number;
  /** Set when the window covers only one model (R-CD-4). */
  model?: string;
  errorCount: number;
}

interface Window {
  lane: Exclude<ProfileLane, "ready">;
  until?: number;
  reason?: string;
  model?: string;
}

function activeWindow(stats: UsageStats, now: number): Window | undefined {
  const windows: Window[] = [
    { lane: "disabled", until: stats.disabledUntil, reason: stats.disabledReason },
    { lane: "blocked", until: stats.blockedUntil, reason: stats.blockedReason, model: stats.blockedModel },
    { lane: "cooldown", until: stats.cooldownUntil, reason: stats.cooldownReason, model: stats.cooldownModel },
  ];
  return windows.find((window) => window.until !== undefined && window.until > now);
}

export function profileState(
  profile: { id: string; provider: string | null; usageStats: UsageStats },
  now: number,
): ProfileState {
  const stats = profile.usageStats;
  const window = activeWindow(stats, now);
  const base = { id: profile.id, provider: profile.provider, errorCount: stats.errorCount ?? 0 };
  if (!window || window.until === undefined) return { ...base, lane: "ready" };
  return {
    ...base,
    lane: window.lane,
    until: window.until,
    remainingMs: window.until - now,
    ...(window.reason !== undefined ? { reason: window.reason } : {}),
    ...(window.model !== undefined ? { model: window.model } : {}),
  };
}
