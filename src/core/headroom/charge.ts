/**
 * Charging a request the provider never reported on (a hedge loser closed before its answer, R-HG-1 cost
 * honesty): the provider still counted it against the profile's windows, so the readings Detour keeps are
 * lowered by what that request used — one request, and its input tokens (as the provider stated them before the
 * close, else estimated) — until the provider's next answer restates them. Pure: the caller reads the readings, charges them, and keeps the result.
 */
import { isFresh, type HeadroomReading } from "./reading.js";

export interface UnreportedRequest {
  /** The model the request was for: a reading scoped to another model is not charged. */
  model: string;
  /** Its input tokens: as the provider stated them before the close, else estimated. */
  inputTokens: number;
  /** When it was sent (epoch ms): a reading taken after that already counts it and is left as it is. */
  sentAt: number;
}

/** Windows that count requests, and windows that count (input) tokens. */
const REQUEST_WINDOWS = new Set(["requests", "key-requests"]);
const TOKEN_WINDOWS = new Set(["tokens", "input-tokens"]);

/** The readings that changed, charged and stamped `now`; readings the request does not touch are left out. */
export function chargeUnreportedRequest(readings: readonly HeadroomReading[], request: UnreportedRequest, now: number): HeadroomReading[] {
  const charged: HeadroomReading[] = [];
  for (const reading of readings) {
    if (!isFresh(reading, now) || reading.readAt >= request.sentAt) continue;
    if (reading.model !== undefined && reading.model !== request.model) continue;
    if (reading.remaining === undefined || reading.limit === undefined || reading.limit <= 0) continue;
    const used = REQUEST_WINDOWS.has(reading.window) ? 1 : TOKEN_WINDOWS.has(reading.window) ? request.inputTokens : 0;
    if (used <= 0) continue;
    const remaining = Math.max(0, reading.remaining - used);
    charged.push({ ...reading, remaining, remainingShare: remaining / reading.limit, readAt: now });
  }
  return charged;
}
