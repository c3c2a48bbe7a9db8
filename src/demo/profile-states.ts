/**
 * One word per profile for the live view: is it ready, or why and until when is it not? Read from the
 * usage stats the gateway reports (R-AP-4), against the demo clock's now. A disable (billing, revoked key)
 * outranks a provider-stated block (Retry-After), which outranks a ladder cooldown — the most severe lane
 * is the one worth showing. A ready profile whose rate-limit window is nearly spent says so too: it is
 * still usable, but Detour tries every profile with room first.
 */
import type { UsageStats } from "../core/types.js";
import type { StatusHeadroom } from "./gateway-client.js";

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
  /** The provider's rate-limit window as last reported (the gateway's `/status` headroom). */
  headroom?: { remainingShare: number | null; window: string; resetAt: number; resetsInMs: number; nearlySpent: boolean };
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
  profile: { id: string; provider: string | null; usageStats: UsageStats; headroom?: StatusHeadroom },
  now: number,
): ProfileState {
  const stats = profile.usageStats;
  const window = activeWindow(stats, now);
  const headroom = profile.headroom && profile.headroom.resetAt > now ? profile.headroom : undefined;
  const base = {
    id: profile.id,
    provider: profile.provider,
    errorCount: stats.errorCount ?? 0,
    ...(headroom
      ? {
          headroom: {
            remainingShare: headroom.remainingShare,
            window: headroom.window,
            resetAt: headroom.resetAt,
            resetsInMs: headroom.resetAt - now,
            nearlySpent: headroom.nearlySpent,
          },
        }
      : {}),
  };
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
