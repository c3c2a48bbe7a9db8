/**
 * R-FB-2: the auth-failure skip cache. Off by default; when on, a non-primary candidate that failed with an
 * auth-class reason in a session is skipped in that session until its marker expires. Process-local by
 * design: a restart forgets it (the seeds' "プロセスローカル").
 */
import type { FailoverReason } from "../core/reasons.js";
import type { ModelRef } from "../core/types.js";

export const SKIP_CACHE_MIN_TTL_MS = 1_000;
export const SKIP_CACHE_MAX_TTL_MS = 600_000;
/** Markers are tiny, but a gateway serving many sessions must not grow without bound. */
export const SKIP_CACHE_MAX_ENTRIES = 10_000;

/**
 * The TTL rule of R-FB-2 applied to an already-parsed value: absent, zero, negative or non-integer = off;
 * otherwise clamped to [1 000, 600 000] ms.
 */
export function clampSkipCacheTtlMs(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined || !Number.isSafeInteger(ttlMs) || ttlMs <= 0) return undefined;
  return Math.min(SKIP_CACHE_MAX_TTL_MS, Math.max(SKIP_CACHE_MIN_TTL_MS, ttlMs));
}

interface Marker {
  until: number;
  reason: FailoverReason;
}

export class SkipCache {
  readonly ttlMs: number | undefined;
  readonly #markers = new Map<string, Marker>();

  constructor(ttlMs: number | undefined) {
    this.ttlMs = clampSkipCacheTtlMs(ttlMs);
  }

  get enabled(): boolean {
    return this.ttlMs !== undefined;
  }

  /** The live marker's reason, or undefined when the candidate may run. */
  liveReason(sessionKey: string | undefined, ref: ModelRef, now: number): FailoverReason | undefined {
    if (!this.enabled || sessionKey === undefined) return undefined;
    const key = markerKey(sessionKey, ref);
    const marker = this.#markers.get(key);
    if (!marker) return undefined;
    if (marker.until <= now) {
      this.#markers.delete(key);
      return undefined;
    }
    return marker.reason;
  }

  mark(sessionKey: string | undefined, ref: ModelRef, reason: FailoverReason, now: number): void {
    if (this.ttlMs === undefined || sessionKey === undefined) return;
    const key = markerKey(sessionKey, ref);
    this.#markers.delete(key);
    this.#markers.set(key, { until: now + this.ttlMs, reason });
    this.#evict(now);
  }

  #evict(now: number): void {
    if (this.#markers.size <= SKIP_CACHE_MAX_ENTRIES) return;
    for (const [key, marker] of this.#markers) {
      if (marker.until <= now) this.#markers.delete(key);
    }
    // Still too many live markers: drop the oldest (Map keeps insertion order).
    for (const key of this.#markers.keys()) {
      if (this.#markers.size <= SKIP_CACHE_MAX_ENTRIES) break;
      this.#markers.delete(key);
    }
  }
}

function markerKey(sessionKey: string, ref: ModelRef): string {
  return JSON.stringify([sessionKey, ref.provider, ref.model]);
}

/** R-FB-2 attempt text of a skipped candidate. */
export function skipCacheMessage(ref: ModelRef, reason: FailoverReason): string {
  return `Skipping ${ref.provider}/${ref.model}: recent ${reason} failure in this session`;
}
