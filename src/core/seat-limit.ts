/**
 * How many seats a profile has (R-PO-8): its own `maxConcurrent`, else its provider's
 * `maxConcurrentPerProfile`, else no limit (undefined) — such a profile takes no seats at all.
 */
export function seatLimitOf(
  profile: { maxConcurrent?: number } | undefined,
  provider: { maxConcurrentPerProfile?: number } | undefined,
): number | undefined {
  return profile?.maxConcurrent ?? provider?.maxConcurrentPerProfile;
}

/**
 * The seats a profile may use now: its configured limit, lowered by a learned cap while one holds (a
 * concurrency refusal said the account allows fewer than configured); undefined = no limit.
 */
export function effectiveSeatLimit(configured: number | undefined, learnedCap: number | undefined): number | undefined {
  if (learnedCap === undefined) return configured;
  return configured === undefined ? learnedCap : Math.min(configured, learnedCap);
}

/**
 * R-PO-8: a 429 that names a concurrency limit lowers the profile's seats to what was in flight on it when
 * the refusal came (the others were accepted). Undefined when nothing else was in flight: the refusal is not
 * explained by this Detour's own load, so it is treated as the rate limit it also is.
 */
export function learnedSeatCap(othersInFlight: number): number | undefined {
  return othersInFlight >= 1 ? Math.floor(othersInFlight) : undefined;
}

/** How long a learned cap holds unless a config reload clears it first. */
export const LEARNED_SEAT_CAP_MS = 10 * 60_000;

/**
 * The `Retry-After` of a request the seats turned away: a seat frees when any attempt on the account ends,
 * usually within seconds, and clients that all come back at once only refill the line.
 */
export const SEATS_FULL_RETRY_AFTER_MS = 5_000;
