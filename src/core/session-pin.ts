/**
 * Session pin of an auth profile (SPEC R-PO-5, R-PO-6): which profile a session prefers for this provider,
 * whether that preference is strict, and which pin fields to persist.
 */
import type { SessionOverrides } from "./types.js";

export interface ResolveSessionPinInput {
  session?: SessionOverrides & { compactionCount?: number };
  provider: string;
  /** orderProfiles(...).ordered for this provider. */
  ordered: readonly string[];
  /** orderProfiles(...).usable for this provider. */
  usable: readonly string[];
  /** Provider of every profile that still exists. */
  profileProviders: Readonly<Record<string, string>>;
}

export interface PinWrite {
  authProfileOverride?: string;
  authProfileOverrideSource?: "auto" | "user";
  authProfileOverrideCompactionCount?: number;
}

export interface ResolveSessionPinResult {
  /** Try this profile first; undefined when the session has no usable preference. */
  pinnedProfileId?: string;
  /** A user pin: never rotate away from it (R-PO-6). */
  strict: boolean;
  /** Pin fields to persist; "clear" removes all of them; undefined leaves the session as it is. */
  write?: PinWrite | "clear";
}

/**
 * Sessions written before `authProfileOverrideSource` existed: only the router's auto pins ever stored a
 * compaction count, so a count marks an auto pin; anything else is treated as the user's explicit choice,
 * as R-CH-2 does for legacy model overrides, so an old explicit pin never silently starts rotating.
 */
function pinSource(session: SessionOverrides): "auto" | "user" {
  if (session.authProfileOverrideSource) return session.authProfileOverrideSource;
  return typeof session.authProfileOverrideCompactionCount === "number" ? "auto" : "user";
}

/** The next usable profile after `current` in order, wrapping around; `current` itself only as a last resort. */
function nextUsableAfter(current: string, ordered: readonly string[], usable: ReadonlySet<string>): string | undefined {
  const start = ordered.indexOf(current);
  for (let offset = 1; offset <= ordered.length; offset += 1) {
    const id = ordered[(start + offset) % ordered.length];
    if (id !== undefined && id !== current && usable.has(id)) return id;
  }
  return usable.has(current) ? current : undefined;
}

function autoPin(profileId: string, compactionCount: number): ResolveSessionPinResult {
  return {
    pinnedProfileId: profileId,
    strict: false,
    write: {
      authProfileOverride: profileId,
      authProfileOverrideSource: "auto",
      authProfileOverrideCompactionCount: compactionCount,
    },
  };
}

export function resolveSessionPin(input: ResolveSessionPinInput): ResolveSessionPinResult {
  const session = input.session ?? {};
  const compactionCount = session.compactionCount ?? 0;
  const usable = new Set(input.usable);
  const pin = session.authProfileOverride;

  if (pin && input.profileProviders[pin] === input.provider) {
    if (pinSource(session) === "user") return { pinnedProfileId: pin, strict: true };

    const compacted = compactionCount > (session.authProfileOverrideCompactionCount ?? 0);
    if (!compacted && usable.has(pin)) return { pinnedProfileId: pin, strict: false };

    const next = nextUsableAfter(pin, input.ordered, usable);
    // Nothing is usable: keep the stored pin so a later run can return to it once it recovers.
    return next === undefined ? { strict: false } : autoPin(next, compactionCount);
  }

  // A session with no pin (or whose pin was dropped because the profile is gone or belongs to another
  // provider) is pinned on this run: the seeds say OpenClaw "pins the selected auth profile per session" to
  // keep provider caches warm, the auto pin being the one "selected by the session router"
  // (seeds/000 "セッションのスティッキネス", seeds/002 "Sitzungshaftung"). The first usable profile in order is it.
  const first = input.ordered.find((id) => usable.has(id));
  if (first !== undefined) return autoPin(first, compactionCount);
  return pin ? { strict: false, write: "clear" } : { strict: false };
}
