/**
 * R-PO-7 ordering: nearly spent profiles go after every profile with headroom (never dropped: when nothing
 * else is usable they are still tried), and the strategy decides among the profiles with room.
 */
import { assessHeadroom, type HeadroomSettings, type ProfileHeadroom } from "./assess.js";
import type { HeadroomReading } from "./reading.js";

export interface HeadroomInput {
  /** Latest readings per profile id, as the store returns them. */
  readings: Readonly<Record<string, readonly HeadroomReading[] | undefined>>;
  settings: HeadroomSettings;
}

export function assessProfiles(
  ids: readonly string[],
  input: HeadroomInput,
  context: { model?: string; now: number },
): Record<string, ProfileHeadroom> {
  const assessed: Record<string, ProfileHeadroom> = {};
  for (const id of ids) {
    const headroom = assessHeadroom(input.readings[id], { ...context, minRemaining: input.settings.minRemaining });
    if (headroom) assessed[id] = headroom;
  }
  return assessed;
}

/**
 * Sort key among profiles with room (lower first). A profile without a reading sorts first under both
 * strategies: its room is unknown, and one answer is enough to learn its window.
 *  - `spread`: most remaining share first.
 *  - `drain-soonest-reset`: the window that resets soonest first (its quota expires first).
 */
export function strategyKey(headroom: ProfileHeadroom | undefined, settings: HeadroomSettings): number {
  if (!headroom) return -Infinity;
  return settings.strategy === "spread" ? -(headroom.remainingShare ?? 1) : headroom.resetAt;
}

export interface SteeredOrder {
  ordered: string[];
  nearlySpent: string[];
  /** Nearly spent profiles the order without headroom would have tried before the first one with room. */
  passedOver: string[];
}

/**
 * Moves nearly spent profiles behind the rest. `ordered` is already sorted (R-PO-2 / R-PO-3 with the
 * strategy); `withoutHeadroom` is the order R-PO-2 / R-PO-3 alone give, against which "passed over" is told.
 */
export function moveNearlySpentLast(
  ordered: readonly string[],
  headroom: Readonly<Record<string, ProfileHeadroom>>,
  withoutHeadroom: readonly string[] = ordered,
): SteeredOrder {
  const withRoom = ordered.filter((id) => !headroom[id]?.nearlySpent);
  // The one whose window reopens first leads, like unusable profiles do (R-PO-2).
  const nearlySpent = ordered
    .filter((id) => headroom[id]?.nearlySpent)
    .sort((a, b) => (headroom[a]?.resetAt ?? 0) - (headroom[b]?.resetAt ?? 0));
  const firstWithRoom = withoutHeadroom.findIndex((id) => !headroom[id]?.nearlySpent);
  const passedOver = firstWithRoom < 0 ? [] : withoutHeadroom.slice(0, firstWithRoom);
  return { ordered: [...withRoom, ...nearlySpent], nearlySpent, passedOver };
}
