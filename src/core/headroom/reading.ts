/**
 * A headroom reading (SPEC R-PO-7): how much of one rate-limit window a profile has left, as the provider
 * last stated it. Readings are plain JSON so every store can keep them as they are.
 */

/** What a subscription window says about itself (`anthropic-ratelimit-unified-*-status`). */
export type HeadroomStatus = "allowed" | "allowed_warning" | "rejected";

export interface HeadroomReading {
  /**
   * Which window: `requests`, `tokens`, `input-tokens`, `output-tokens` (per-minute style buckets),
   * `key-requests` (an OpenRouter key),
   * `unified` / `unified-5h` / `unified-7d` (subscription windows), `codex-primary` / `codex-secondary`.
   */
  window: string;
  /** The header family the reading came from (`openai`, `anthropic`, `anthropic-unified`, `openrouter`, `codex`). */
  family: string;
  /** Set when the provider limits per model (OpenAI, Anthropic API buckets); absent = the whole profile. */
  model?: string;
  /** Share of the window still available, 0…1; absent when the window states only a status. */
  remainingShare?: number;
  limit?: number;
  remaining?: number;
  status?: HeadroomStatus;
  /** For the `unified` summary: which window the provider says binds (`five_hour`, `seven_day`, …). */
  claim?: string;
  /** Window length when the provider states it (Codex `window-minutes`). */
  windowMinutes?: number;
  /** When the window resets (epoch ms). A reading past its reset says nothing any more. */
  resetAt: number;
  /** When the reading was taken (epoch ms). */
  readAt: number;
}

/** The store key of a reading: one row per profile, model scope and window (R-PO-7 bounded state). */
export function readingSlot(reading: Pick<HeadroomReading, "model" | "window">): string {
  return `${reading.model ?? ""}|${reading.window}`;
}

/** A reading still speaks for its window until the reset passes. */
export function isFresh(reading: HeadroomReading, now: number): boolean {
  return reading.resetAt > now;
}

/**
 * At most this many model scopes are kept per profile: model ids reach the store from requests, so the
 * number of rows is capped by this constant, never by what clients send. The least recently read go first.
 */
export const MAX_HEADROOM_MODELS_PER_PROFILE = 16;

/**
 * Merges fresh readings into what a profile holds: the latest reading of a slot replaces the older one,
 * readings past their reset are dropped, and model scopes beyond the cap are evicted oldest first.
 * Pure: every backend applies this same rule.
 */
export function mergeReadings(current: readonly HeadroomReading[], incoming: readonly HeadroomReading[], now: number): HeadroomReading[] {
  const bySlot = new Map<string, HeadroomReading>();
  for (const reading of current) if (isFresh(reading, now)) bySlot.set(readingSlot(reading), reading);
  for (const reading of incoming) {
    if (!isFresh(reading, now)) continue;
    const slot = readingSlot(reading);
    const existing = bySlot.get(slot);
    if (!existing || existing.readAt <= reading.readAt) bySlot.set(slot, reading);
  }
  const merged = [...bySlot.values()];
  const lastReadByModel = new Map<string, number>();
  for (const reading of merged) {
    if (reading.model === undefined) continue;
    lastReadByModel.set(reading.model, Math.max(lastReadByModel.get(reading.model) ?? -Infinity, reading.readAt));
  }
  if (lastReadByModel.size <= MAX_HEADROOM_MODELS_PER_PROFILE) return merged;
  const kept = new Set(
    [...lastReadByModel.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_HEADROOM_MODELS_PER_PROFILE)
      .map(([model]) => model),
  );
  return merged.filter((reading) => reading.model === undefined || kept.has(reading.model));
}
