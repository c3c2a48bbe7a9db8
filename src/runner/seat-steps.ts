/**
 * The profile loop's seat steps (R-PO-8), kept apart so that every way an attempt starts — ordinary,
 * retry, continuation, hedge — takes its seat the same way: `takeSeat` before the call, `release` when the
 * attempt ends, is abandoned or aborted.
 */
import type { Classification } from "../core/types.js";
import type { RunnerDeps } from "./runner-deps.js";
import type { SeatHold, SeatTake } from "./seat-keeper.js";

const NO_SEAT: SeatHold = { release() {} };
const NO_SEAT_TAKE: SeatTake = { kind: "held", hold: NO_SEAT };

/** A seat for one attempt on `profileId`; keyless attempts and runs without seats hold nothing. */
export function takeSeat(deps: Pick<RunnerDeps, "seats">, provider: string, profileId: string | undefined): Promise<SeatTake> | SeatTake {
  if (!deps.seats || profileId === undefined) return NO_SEAT_TAKE;
  return deps.seats.take(profileId, provider);
}

/** Runs the attempt and gives its seat back however it ends (a settled, abandoned or aborted attempt). */
export async function withSeat<T>(hold: SeatHold, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } finally {
    hold.release();
  }
}

/**
 * R-PO-8: a 429 naming a concurrency limit lowers the profile's seats to what else was in flight on it,
 * instead of a cooldown. Undefined when nothing was learned (no seats kept, or nothing else in flight): the
 * failure then takes the ordinary rate-limit path.
 */
export async function learnSeatCap(
  deps: Pick<RunnerDeps, "seats" | "events" | "agentId">,
  at: { runId: string; provider: string },
  profileId: string | undefined,
  classification: Classification,
): Promise<number | undefined> {
  if (!deps.seats || profileId === undefined || !classification.concurrencyLimit) return undefined;
  const learned = await deps.seats.learnFromRefusal(profileId, at.provider);
  if (!learned) return undefined;
  deps.events.emit({ type: "seat_cap_learned", runId: at.runId, agentId: deps.agentId, provider: at.provider, profileId, ...learned });
  return learned.cap;
}
