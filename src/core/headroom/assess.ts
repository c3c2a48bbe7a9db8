/**
 * R-PO-7: what a profile's readings mean for ordering — how much room it has for one model, which window
 * binds, and whether it is nearly spent.
 */
import { isFresh, type HeadroomReading } from "./reading.js";

export type HeadroomStrategy = "spread" | "drain-soonest-reset";

export interface HeadroomSettings {
  /** `auth.headroom.minRemaining`: below this remaining share a profile is nearly spent. */
  minRemaining: number;
  strategy: HeadroomStrategy;
}

export const DEFAULT_HEADROOM_SETTINGS: Readonly<HeadroomSettings> = Object.freeze({
  minRemaining: 0.05,
  strategy: "spread",
});

export interface ProfileHeadroom {
  /** The lowest remaining share of any fresh window (0…1); absent when windows state only a status. */
  remainingShare?: number;
  /** The window that decides: a nearly spent one (the last to reset), else the one with the least room. */
  window: string;
  /** When that window resets (epoch ms). */
  resetAt: number;
  nearlySpent: boolean;
  /** Why it is nearly spent: a share below `minRemaining`, or a window status warning or rejecting. */
  why?: "below_min_remaining" | "window_status";
}

function spentWhy(reading: HeadroomReading, minRemaining: number): ProfileHeadroom["why"] {
  if (reading.status === "rejected" || reading.status === "allowed_warning") return "window_status";
  if (reading.remainingShare !== undefined && reading.remainingShare < minRemaining) return "below_min_remaining";
  return undefined;
}

/** Readings that apply to a run of `model`: account-wide ones and those of this model, before their reset. */
export function applicableReadings(
  readings: readonly HeadroomReading[] | undefined,
  model: string | undefined,
  now: number,
): HeadroomReading[] {
  return (readings ?? []).filter((reading) => isFresh(reading, now) && (reading.model === undefined || reading.model === model));
}

/** Undefined when no fresh reading applies: the profile's room is unknown, and unknown is not spent. */
export function assessHeadroom(
  readings: readonly HeadroomReading[] | undefined,
  context: { model?: string; now: number; minRemaining: number },
): ProfileHeadroom | undefined {
  const fresh = applicableReadings(readings, context.model, context.now);
  if (fresh.length === 0) return undefined;
  const shares = fresh.flatMap((reading) => (reading.remainingShare === undefined ? [] : [reading.remainingShare]));
  const remainingShare = shares.length > 0 ? Math.min(...shares) : undefined;

  const spent = fresh
    .map((reading) => ({ reading, why: spentWhy(reading, context.minRemaining) }))
    .filter((entry) => entry.why !== undefined);
  if (spent.length > 0) {
    // Room comes back only when every spent window has reset: the last reset is the one that counts.
    const last = spent.reduce((a, b) => (b.reading.resetAt > a.reading.resetAt ? b : a));
    return {
      ...(remainingShare !== undefined ? { remainingShare } : {}),
      window: last.reading.window,
      resetAt: last.reading.resetAt,
      nearlySpent: true,
      ...(last.why ? { why: last.why } : {}),
    };
  }
  const binding = fresh.reduce((a, b) => ((b.remainingShare ?? 1) < (a.remainingShare ?? 1) ? b : a));
  return {
    ...(remainingShare !== undefined ? { remainingShare } : {}),
    window: binding.window,
    resetAt: binding.resetAt,
    nearlySpent: false,
  };
}
