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
