/**
 * Session pin of an auth profile (SPEC R-PO-5, R-PO-6, R-PO-7): which profile a session prefers for this
 * provider, whether that preference is strict, and which pin fields to persist.
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
  /** orderProfiles(...).nearlySpent (R-PO-7): an auto pin moves off these before the turn. */
  nearlySpent?: readonly string[];
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
  /** R-PO-7: the auto pin left a nearly spent profile for one with headroom, before any attempt. */
  headroomMove?: { from: string; to: string };
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

/**
 * The next usable profile after `current` in order, wrapping around; one with headroom before a nearly
 * spent one (R-PO-7); `current` itself only as a last resort.
 */
function nextUsableAfter(
  current: string,
  ordered: readonly string[],
  usable: ReadonlySet<string>,
  nearlySpent: ReadonlySet<string>,
): string | undefined {
  const start = ordered.indexOf(current);
  const after = (accept: (id: string) => boolean): string | undefined => {
    for (let offset = 1; offset <= ordered.length; offset += 1) {
      const id = ordered[(start + offset) % ordered.length];
      if (id !== undefined && id !== current && usable.has(id) && accept(id)) return id;
    }
    return undefined;
  };
  return after((id) => !nearlySpent.has(id)) ?? after(() => true) ?? (usable.has(current) ? current : undefined);
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
  const nearlySpent = new Set(input.nearlySpent ?? []);
  const pin = session.authProfileOverride;

  if (pin && input.profileProviders[pin] === input.provider) {
    if (pinSource(session) === "user") return { pinnedProfileId: pin, strict: true };

    const compacted = compactionCount > (session.authProfileOverrideCompactionCount ?? 0);
    if (!compacted && usable.has(pin)) {
      if (!nearlySpent.has(pin)) return { pinnedProfileId: pin, strict: false };
      // R-PO-7: leave a nearly spent profile before the turn, not after its 429 — when another has room.
      const roomy = nextUsableAfter(pin, input.ordered, usable, nearlySpent);
      if (roomy === undefined || nearlySpent.has(roomy) || roomy === pin) return { pinnedProfileId: pin, strict: false };
      return { ...autoPin(roomy, compactionCount), headroomMove: { from: pin, to: roomy } };
    }

    const next = nextUsableAfter(pin, input.ordered, usable, nearlySpent);
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
