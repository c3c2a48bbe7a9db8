/**
 * R-PO-7 in status output (`detour status`, `/status`, the status page): each profile's tightest fresh
 * rate-limit window — how much is left, which window, when it resets — in one shape and one wording.
 */
import { assessHeadroom } from "../core/headroom/assess.js";
import type { HeadroomReading } from "../core/headroom/reading.js";

export interface ProfileHeadroomStatus {
  /** Lowest remaining share of any fresh window, 0…1; null when the windows state only a status. */
  remainingShare: number | null;
  /** The window that decides (`requests`, `tokens`, `unified-5h`, `codex-primary`, …). */
  window: string;
  /** Set when that window is the provider's limit for one model. */
  model?: string;
  resetAt: number;
  /** Ordered after every profile with headroom until `resetAt` or a fresh reading with room (R-PO-7). */
  nearlySpent: boolean;
  why?: "below_min_remaining" | "window_status";
}

/** Across every model the profile has readings for: status shows the profile, not one run. */
export function headroomStatusOf(
  readings: readonly HeadroomReading[] | undefined,
  now: number,
  minRemaining: number,
): ProfileHeadroomStatus | undefined {
  if (!readings || readings.length === 0) return undefined;
  const assessed = assessHeadroom(
    readings.map(({ model: _model, ...rest }) => rest),
    { now, minRemaining },
  );
  if (!assessed) return undefined;
  const binding = readings.find((reading) => reading.window === assessed.window && reading.resetAt === assessed.resetAt);
  return {
    remainingShare: assessed.remainingShare ?? null,
    window: assessed.window,
    ...(binding?.model !== undefined ? { model: binding.model } : {}),
    resetAt: assessed.resetAt,
    nearlySpent: assessed.nearlySpent,
    ...(assessed.why ? { why: assessed.why } : {}),
  };
}

/** `42% of requests (gpt-4o) left, resets 2025-01-15T12:01:00Z` · `nearly spent: unified-5h …`. */
export function headroomText(headroom: ProfileHeadroomStatus | undefined): string {
  if (!headroom) return "";
  const share = headroom.remainingShare === null ? "" : `${Math.round(headroom.remainingShare * 1000) / 10}% of `;
  const scope = headroom.model !== undefined ? ` (${headroom.model})` : "";
  const reset = new Date(headroom.resetAt).toISOString().replace(".000Z", "Z");
  const text = `${share}${headroom.window}${scope} left, resets ${reset}`;
  return headroom.nearlySpent ? `nearly spent: ${text}` : text;
}
